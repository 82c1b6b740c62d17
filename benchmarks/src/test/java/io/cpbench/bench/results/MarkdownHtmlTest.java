package io.cpbench.bench.results;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's Markdown carries text a run met (an error message, a fault's target), so what reaches the page is text:
 * no script, no live {@code javascript:} link, no image fetched from anywhere.
 */
class MarkdownHtmlTest {

    @Test
    void aLinkToScriptIsDefused() {
        String html = MarkdownHtml.html("connect failed: [details](javascript:alert(document.cookie)) and"
                + " [data](data:text/html;base64,PHNjcmlwdD4=) and [VbScript](VBSCRIPT:x)");
        assertThat(html).doesNotContainIgnoringCase("javascript:").doesNotContainIgnoringCase("data:")
                .doesNotContainIgnoringCase("vbscript:").contains("href=\"#\">details</a>");
    }

    @Test
    void anImageIsNeverFetched() {
        String html = MarkdownHtml.html("| target |\n| --- |\n| ![tracker](https://example.com/t.png) |\n");
        assertThat(html).doesNotContain("<img").doesNotContain("example.com").contains("[image: tracker]");
    }

    @Test
    void rawHtmlIsText() {
        String html = MarkdownHtml.html("error: <script>alert(1)</script> <img src=x onerror=alert(1)>");
        assertThat(html).doesNotContain("<script").doesNotContain("<img").contains("&lt;script&gt;");
    }

    @Test
    void linksTheReportsOwnPagesMakeAreKept() {
        assertThat(MarkdownHtml.html("[trend](../trend/index.html#series-3) [docs](https://hazelcast.com/)"))
                .contains("href=\"../trend/index.html#series-3\"").contains("href=\"https://hazelcast.com/\"");
        assertThat(MarkdownHtml.safeUrl("a/b:c")).as("a colon after a slash is not a scheme").isEqualTo("a/b:c");
        assertThat(MarkdownHtml.safeUrl(" JavaScript:x")).isEqualTo("#");
    }
}
