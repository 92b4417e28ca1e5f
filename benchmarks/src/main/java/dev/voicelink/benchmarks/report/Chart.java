package dev.voicelink.benchmarks.report;

import java.util.Locale;
import java.util.Map;

/**
 * A hand-written SVG: two grouped bar charts (MB/s, bytes allocated per input byte) by resource size,
 * of the variants in {@link #LABELS} (the other encoding figures are in the page's table only).
 */
final class Chart {
  private static final String[] COLORS = {"#9e9e9e", "#e07b39", "#2f6db5", "#6aa84f"};
  private static final Map<String, String> LABELS = new java.util.LinkedHashMap<>();

  static {
    LABELS.put("floorBase64", "floor: okio Base64");
    LABELS.put("byHandEncoding", "by hand (form body)");
    LABELS.put("sdkEncoding", "SDK (form body)");
    LABELS.put("sdkUpload", "SDK upload (HTTP call)");
  }

  private Chart() {
  }

  static String encoding(Map<String, double[]> figures, String[] sizes) {
    int width = 900;
    int height = 380;
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
        .append(height).append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    panel(svg, figures, sizes, 0, 20, "Throughput, MB/s (log scale)", true);
    panel(svg, figures, sizes, sizes.length, 470, "Bytes allocated per input byte", false);
    int x = 40;
    int i = 0;
    for (Map.Entry<String, String> label : LABELS.entrySet()) {
      svg.append("<rect x=\"").append(x).append("\" y=\"352\" width=\"12\" height=\"12\" fill=\"")
          .append(COLORS[i++]).append("\"/><text x=\"").append(x + 16).append("\" y=\"362\">")
          .append(label.getValue()).append("</text>\n");
      x += 170;
    }
    return svg.append("</svg>\n").toString();
  }

  private static void panel(StringBuilder svg, Map<String, double[]> figures, String[] sizes, int offset,
      int left, String title, boolean log) {
    int top = 40;
    int plotHeight = 250;
    int plotWidth = 400;
    double max = 0;
    double min = Double.MAX_VALUE;
    for (String variant : LABELS.keySet()) {
      double[] values = figures.get(variant);
      for (int i = 0; i < sizes.length; i++) {
        double v = values[offset + i];
        if (!Double.isNaN(v) && v > 0) {
          max = Math.max(max, v);
          min = Math.min(min, v);
        }
      }
    }
    if (max == 0) max = 1;
    double lo = log ? Math.pow(10, Math.floor(Math.log10(Math.min(min, max)))) : 0;
    double hi = log ? Math.pow(10, Math.ceil(Math.log10(max))) : max * 1.15;
    svg.append("<text x=\"").append(left + plotWidth / 2).append("\" y=\"24\" text-anchor=\"middle\" "
        + "font-weight=\"bold\">").append(title).append("</text>\n");
    svg.append("<line x1=\"").append(left + 40).append("\" y1=\"").append(top + plotHeight).append("\" x2=\"")
        .append(left + plotWidth).append("\" y2=\"").append(top + plotHeight).append("\" stroke=\"#333\"/>\n");
    if (log) {
      for (double tick = lo; tick <= hi * 1.0001; tick *= 10) {
        double y = top + plotHeight - scale(tick, lo, hi, true) * plotHeight;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left + 40, y, left + plotWidth, y,
            left + 36, y + 4, ReportGenerator.num(tick)));
      }
    } else {
      for (int t = 0; t <= 4; t++) {
        double tick = hi * t / 4;
        double y = top + plotHeight - (double) t / 4 * plotHeight;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left + 40, y, left + plotWidth, y,
            left + 36, y + 4, ReportGenerator.num(tick)));
      }
    }
    int groupWidth = (plotWidth - 50) / sizes.length;
    int barWidth = (groupWidth - 20) / LABELS.size();
    for (int s = 0; s < sizes.length; s++) {
      int groupLeft = left + 50 + s * groupWidth;
      int v = 0;
      for (String variant : LABELS.keySet()) {
        double value = figures.get(variant)[offset + s];
        if (!Double.isNaN(value) && value > 0) {
          double h = scale(value, lo, hi, log) * plotHeight;
          svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
              + "<title>%s</title></rect>%n", groupLeft + v * barWidth, top + plotHeight - h, barWidth - 2, h,
              COLORS[v], ReportGenerator.num(value)));
        }
        v++;
      }
      svg.append("<text x=\"").append(groupLeft + (groupWidth - 20) / 2).append("\" y=\"").append(top + plotHeight + 18)
          .append("\" text-anchor=\"middle\">").append(sizes[s]).append("</text>\n");
    }
  }

  private static double scale(double value, double lo, double hi, boolean log) {
    if (!log) return value / hi;
    double v = Math.max(value, lo);
    return (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
  }
}
