package io.cpbench.bench.results;

import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Image;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.UrlSanitizer;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Markdown (the CLI's tables, and the prose around them) as HTML for a report page. */
public final class MarkdownHtml {

    private static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();
    /**
     * Markdown's text can hold what a run was told or met (an error message, a fault's target, a scenario's name), so
     * the page gets it as text: raw HTML escaped, a link kept only to a relative, http(s) or mailto address (no
     * {@code javascript:} or {@code data:}), and an image drawn as its alt text, never fetched (a report makes no
     * request to the network).
     */
    private static final HtmlRenderer HTML = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true)
            .urlSanitizer(new UrlSanitizer() {
                @Override
                public String sanitizeLinkUrl(String url) {
                    return safeUrl(url);
                }

                @Override
                public String sanitizeImageUrl(String url) {
                    return "#"; // never drawn: ImageAsText
                }
            }).nodeRendererFactory(ImageAsText::new)
            .extensions(List.of(TablesExtension.create())).build();

    private MarkdownHtml() {
    }

    /** {@code markdown} as HTML. */
    public static String html(String markdown) {
        return HTML.render(MARKDOWN.parse(markdown));
    }

    /** {@code url} when it is relative or http(s)/mailto, else "#" (what a sanitised link points to). */
    public static String safeUrl(String url) {
        String u = url.strip();
        int colon = u.indexOf(':');
        int cut = indexOfAny(u, "/?#");
        if (colon < 0 || (cut >= 0 && cut < colon)) {
            return u; // no scheme: relative to the report
        }
        String scheme = u.substring(0, colon).toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https") || scheme.equals("mailto") ? u : "#";
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Renders a Markdown image as its alt text in brackets: nothing is fetched. */
    private static final class ImageAsText implements NodeRenderer {
        private final HtmlNodeRendererContext context;

        ImageAsText(HtmlNodeRendererContext context) {
            this.context = context;
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(Image.class);
        }

        @Override
        public void render(Node node) {
            StringBuilder alt = new StringBuilder();
            node.accept(new AbstractVisitor() {
                @Override
                public void visit(Text text) {
                    alt.append(text.getLiteral());
                }
            });
            context.getWriter().text("[image: " + alt + "]");
        }
    }
}
