import org.HdrHistogram.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
public class FirstSecond {
    public static void main(String[] a) throws Exception {
        // per run dir: for each scenario's cells in round order, the first measured second's ops / the median of its other full seconds
        for (String dir : a) {
            Map<String, List<Double>> firsts = new TreeMap<>();
            List<Path> ds;
            try (var files = Files.list(Path.of(dir))) { ds = files.filter(q -> q.toString().endsWith(".hlog")).sorted().toList(); }
            {
                for (Path p : ds) {
                    String scen = p.getFileName().toString().replaceAll("^\\d+-", "").replace(".hlog", "");
                    HistogramLogReader r = new HistogramLogReader(p.toFile());
                    List<Long> counts = new ArrayList<>();
                    EncodableHistogram h;
                    while ((h = r.nextIntervalHistogram()) != null) counts.add(((AbstractHistogram) h).getTotalCount());
                    if (counts.size() < 4) continue;
                    List<Long> rest = new ArrayList<>(counts.subList(1, counts.size() - 1));
                    Collections.sort(rest);
                    double med = rest.get(rest.size() / 2);
                    firsts.computeIfAbsent(scen, k -> new ArrayList<>()).add(med == 0 ? 0 : counts.get(0) / med);
                }
            }
            StringBuilder sb = new StringBuilder(dir.replaceAll(".*/qm6-(\\d+)/.*", "run $1") + ":");
            List<Double> all = new ArrayList<>();
            for (var e : firsts.entrySet()) { all.addAll(e.getValue()); }
            Collections.sort(all);
            sb.append(String.format(" first second / median second, all %d cells: median %.2f, p10 %.2f, under 0.8: %d;", all.size(), all.get(all.size()/2), all.get(all.size()/10), all.stream().filter(x -> x < 0.8).count()));
            for (String s : List.of("client-lb", "client-smart", "client-leader", "client-leader-aware")) {
                sb.append(" ").append(s).append(" ").append(firsts.get(s).stream().map(x -> String.format("%.2f", x)).toList());
            }
            System.out.println(sb);
        }
    }
}
