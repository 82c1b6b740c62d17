// The history's trend page: a chart per series, its change points marked, and a table of its points, each linking
// to its run. Data: {title, generated, series: [{name, metric, points: [{run, started, commit, value, censored,
// href}], changes: [{after, percent, p, worse, meanBefore, meanAfter}]}]}.
(function () {
  "use strict";
  const errors = [];
  window.addEventListener("error", e => {
    errors.push(String(e.message));
    document.body.dataset.errors = errors.join(" | ");
  });
  const data = JSON.parse(document.getElementById("cpbench-data").textContent);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  };
  const fmt = v => v >= 100 ? Math.round(v).toLocaleString("en") : v.toFixed(2);
  document.getElementById("title").textContent = data.title;
  document.getElementById("generated").textContent = data.generated;
  const toc = document.getElementById("toc");
  const main = document.getElementById("runs");

  // Change points: a dashed line between the last point before and the first after, labelled with the change.
  function changesHook(changes) {
    return u => {
      const ctx = u.ctx;
      ctx.save();
      changes.forEach(c => {
        const x = Math.round(u.valToPos(c.after - 0.5, "x", true));
        ctx.strokeStyle = c.worse ? "#b3261e" : "#17703a";
        ctx.setLineDash([6, 4]);
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = ctx.strokeStyle;
        ctx.font = (12 * devicePixelRatio) + "px system-ui";
        ctx.fillText((c.percent > 0 ? "+" : "") + c.percent.toFixed(1) + " %", x + 4, u.bbox.top + 14 * devicePixelRatio);
      });
      ctx.restore();
    };
  }

  // For the browser test and anyone reading the DOM: the chart's points, and whether its canvas has ink on it.
  function markDrawn(section, u, points) {
    section.dataset.points = points;
    section.dataset.inked = cpbenchInk(u);
  }

  data.series.forEach((s, i) => {
    const id = "s" + i;
    toc.append(el("a", {href: "#" + id}, s.name + " (" + s.metric + ")"), " ");
    const section = el("section", {id: id, class: "chart"});
    section.append(el("h2", {}, s.name + " · " + s.metric));
    const verdicts = el("div", {class: "verdict"});
    if (s.changes.length === 0) verdicts.append(el("span", {class: "muted"}, "no change point"));
    s.changes.forEach(c => {
      verdicts.append(el("span", {class: "cp" + (c.worse ? "" : " better")},
          "change " + (c.percent > 0 ? "+" : "") + c.percent.toFixed(1) + " % (" + (c.worse ? "worse" : "better")
          + ", p = " + c.p.toPrecision(2) + ") at run " + s.points[c.after].run.substring(0, 12)
          + (s.points[c.after].commit ? ", commit " + s.points[c.after].commit : "")), el("br"));
    });
    section.append(verdicts);
    const box = el("div", {class: "plot"});
    section.append(box);
    const xs = s.points.map((p, k) => k);
    const ys = s.points.map(p => p.value);
    const width = Math.min(1100, Math.max(480, document.body.clientWidth - 80));
    const plot = new uPlot({
      width, height: 260,
      scales: {x: {time: false}},
      axes: [{label: "run (oldest first)", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]}, {label: s.metric, size: 70}],
      series: [{label: "run"}, {label: s.metric, stroke: "#2f6fb1", width: 2, points: {size: 7}}],
      hooks: {draw: [changesHook(s.changes), u => markDrawn(section, u, ys.length)]},
      legend: {live: true}
    }, [xs, ys], box);
    plot.over.addEventListener("click", () => {
      const k = plot.cursor.idx;
      if (k != null && s.points[k].href) window.open(s.points[k].href, "_blank");
    });
    const table = el("table", {class: "points"});
    const head = el("tr");
    ["#", "run", "started", "commit", s.metric].forEach(h => head.append(el("th", {}, h)));
    table.append(head);
    s.points.forEach((p, k) => {
      const tr = el("tr", (data.highlight || []).includes(p.run) ? {class: "this"} : {});
      const run = p.href ? el("a", {href: p.href}, p.run.substring(0, 12)) : document.createTextNode(p.run.substring(0, 12));
      const cell = el("td");
      cell.append(run);
      tr.append(el("td", {}, String(k)), cell, el("td", {}, p.started || "-"), el("td", {}, p.commit || "-"),
          el("td", {}, (p.censored ? "≥" : "") + fmt(p.value)));
      table.append(tr);
    });
    const details = el("details");
    details.append(el("summary", {}, s.points.length + " points"), table);
    section.append(details);
    main.append(section);
  });
  if (data.highlight && data.highlight.length) {
    document.getElementById("generated").append(el("br"), document.createTextNode("Rows in bold: the run"
        + (data.highlight.length === 1 ? "" : "s") + " of the report that links here."));
  }
  document.getElementById("footer").append(" A point links to its run's directory.");
  document.body.dataset.charts = String(data.series.length);
})();
