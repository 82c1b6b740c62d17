// cp-bench report: draws the JSON in #cpbench-data (ReportModel) with uPlot. In a live view (--live) it
// fetches /data.json once a second and draws again.
(function () {
  "use strict";
  const errors = [];
  function recordError(text) {
    errors.push(text);
    document.body.dataset.errors = errors.join(" | ");
  }
  window.addEventListener("error", e => recordError(String(e.message || e)));
  window.addEventListener("unhandledrejection", e => recordError("unhandled rejection: " + e.reason));
  const consoleError = console.error.bind(console);
  console.error = (...args) => { recordError(args.join(" ")); consoleError(...args); };

  const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22", "#393b79", "#ad494a", "#637939"];
  const plots = [];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "html") e.innerHTML = v; else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function fmt(v, digits) {
    if (v == null || !isFinite(v)) return "–";
    const a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(0) + "k";
    if (a >= 1e3) return (v / 1e3).toFixed(1) + "k";
    return v.toFixed(digits == null ? (a >= 10 || v === 0 ? 0 : a >= 1 ? 1 : 2) : digits);
  }

  function micros(v) {
    if (v == null || !isFinite(v)) return "–";
    if (v >= 1e6) return (v / 1e6).toFixed(v >= 1e7 ? 0 : 1) + " s";
    if (v >= 1e3) return (v / 1e3).toFixed(v >= 1e4 ? 0 : 1) + " ms";
    return v.toFixed(0) + " µs";
  }

  // 1/(1-p) on the percentile axis: 1 -> 0 %, 10 -> 90 %, 100 -> 99 %, ...
  function percentileLabel(x) {
    const p = 100 * (1 - 1 / x);
    if (p <= 0) return "0%";
    const decimals = Math.max(0, Math.round(Math.log10(x)) - 2);
    return p.toFixed(decimals) + "%";
  }

  function isPowerOf10(v) {
    const l = Math.log10(v);
    return Math.abs(l - Math.round(l)) < 1e-9;
  }

  // Series with their own x values, joined onto one x axis (uPlot draws aligned data; gaps are spanned).
  function join(series, logY) {
    const tables = series.map(s => [s.x, s.y.map(v => (v == null || (logY(s) && v <= 0)) ? null : v)]);
    if (tables.length === 1) return tables[0];
    return uPlot.join(tables);
  }

  function bandsHook(bands) {
    return u => {
      if (!bands || !bands.length) return;
      const ctx = u.ctx;
      ctx.save();
      const top = u.bbox.top, height = u.bbox.height;
      bands.forEach((b, i) => {
        const x0 = Math.max(u.bbox.left, u.valToPos(b.from, "x", true));
        const x1 = Math.min(u.bbox.left + u.bbox.width, u.valToPos(b.to, "x", true));
        if (!(x1 > x0)) return;
        ctx.fillStyle = b.kind === "fault" ? "rgba(214,39,40,0.13)" : (i % 2 ? "rgba(31,119,180,0.07)" : "rgba(31,119,180,0.02)");
        ctx.fillRect(x0, top, x1 - x0, height);
        ctx.fillStyle = b.kind === "fault" ? "rgba(150,20,20,0.9)" : "rgba(40,70,110,0.85)";
        ctx.font = (11 * devicePixelRatio) + "px system-ui, sans-serif";
        ctx.fillText(b.label, x0 + 3 * devicePixelRatio, top + 12 * devicePixelRatio * (1 + (i % 2)));
      });
      ctx.restore();
    };
  }

  function errorBarsHook(chart) {
    return u => {
      const ctx = u.ctx;
      ctx.save();
      ctx.setLineDash([]);
      chart.series.forEach((s, i) => {
        const color = PALETTE[colorIndex(chart, i)];
        if (s.low) {
          ctx.strokeStyle = color;
          ctx.lineWidth = 1.5 * devicePixelRatio;
          s.x.forEach((x, k) => {
            const px = u.valToPos(x, "x", true);
            ctx.beginPath();
            ctx.moveTo(px, u.valToPos(s.low[k], "ops", true));
            ctx.lineTo(px, u.valToPos(s.high[k], "ops", true));
            ctx.stroke();
          });
        }
        if (s.knee) {
          const px = u.valToPos(s.knee.x, "x", true), py = u.valToPos(s.knee.y, "ops", true);
          ctx.fillStyle = color;
          ctx.beginPath();
          ctx.arc(px, py, 6 * devicePixelRatio, 0, 2 * Math.PI);
          ctx.fill();
          ctx.font = (11 * devicePixelRatio) + "px system-ui, sans-serif";
          ctx.fillText("knee", px + 8 * devicePixelRatio, py - 6 * devicePixelRatio);
        }
      });
      ctx.restore();
    };
  }

  // A fit is drawn in its routing's colour.
  function colorIndex(chart, i) {
    const s = chart.series[i];
    if (s.of) {
      const j = chart.series.findIndex(o => o.label === s.of);
      if (j >= 0) return colorIndex(chart, j);
    }
    let n = 0;
    for (let k = 0; k < i; k++) if (!chart.series[k].of) n++;
    return n % PALETTE.length;
  }

  function drawChart(container, chart) {
    const box = el("div", {class: "chart"}, el("div", {class: "ctitle"}, chart.title));
    container.append(box);
    const width = Math.max(480, box.clientWidth - 18);
    const percentiles = chart.type === "percentiles";
    const latAxisLog = s => s.axis === "lat" && percentiles;
    const data = join(chart.series, latAxisLog);
    const hasLat = chart.series.some(s => s.axis === "lat");
    const hasOps = chart.series.some(s => s.axis === "ops");
    const hasRatio = chart.series.some(s => s.axis === "ratio");
    const scales = {x: {time: false}};
    if (percentiles) scales.x = {time: false, distr: 3, log: 10};
    if (hasLat) scales.lat = percentiles ? {distr: 3, log: 10} : {range: (u, min, max) => [0, max > 0 ? max * 1.05 : 1]};
    if (hasOps) scales.ops = {range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1]};
    // a ratio's axis always shows 1 (no change), with room around the data
    if (hasRatio) scales.ratio = {range: (u, min, max) => [Math.min(min, 1) * 0.97, Math.max(max, 1) * 1.03]};
    const axes = [{
      label: percentiles ? "percentile (axis: 1/(1-p), log)" : chart.xLabel || (chart.type === "sweep" ? "concurrency" : "seconds"),
      values: percentiles ? (u, splits) => splits.map(v => isPowerOf10(v) ? percentileLabel(v) : "") : undefined,
    }];
    if (hasOps) axes.push({scale: "ops", label: chart.type === "time" && chart.title.startsWith("Availability") ? "ops per second" : "op/s",
      values: (u, splits) => splits.map(v => fmt(v)), size: 60});
    if (hasRatio) axes.push({scale: "ratio", label: "new ÷ base", values: (u, splits) => splits.map(v => v.toFixed(2)), size: 60});
    if (hasLat) axes.push({scale: "lat", label: "latency", side: hasOps ? 1 : 3, grid: {show: !hasOps},
      values: (u, splits) => splits.map(v => percentiles && !isPowerOf10(v) ? "" : micros(v)), size: 64});
    const series = [{label: percentiles ? "percentile" : chart.type === "sweep" ? "x" : chart.type === "pairs" ? "pair" : "s",
      value: (u, v) => v == null ? "–" : percentiles ? percentileLabel(v) : fmt(v, 1)}];
    chart.series.forEach((s, i) => {
      const color = PALETTE[colorIndex(chart, i)];
      series.push({
        label: s.label, scale: s.axis, stroke: color, width: s.axis === "lat" && !percentiles ? 1 : 1.6,
        dash: s.dash || (s.axis === "lat" && !percentiles) ? [5, 4] : undefined,
        spanGaps: true, points: {show: (chart.type === "sweep" && !s.dash) || !!s.points, size: s.points ? 4 : 6, fill: color},
        paths: s.points ? () => null : undefined, // a scatter: points only
        value: (u, v) => s.axis === "lat" ? micros(v) : s.axis === "ratio" ? (v == null ? "–" : v.toFixed(3)) : fmt(v),
      });
    });
    const hooks = {drawClear: [bandsHook(chart.bands)]};
    if (chart.type === "sweep") hooks.draw = [errorBarsHook(chart)];
    hooks.draw = (hooks.draw || []).concat([u => markDrawn(box, u, data)]);
    const plot = new uPlot({width, height: 300, scales, axes, series, hooks, legend: {live: true}}, data, box);
    plots.push(plot);
    if (chart.type === "time" && chart.series.some(s => s.axis === "lat")) {
      box.append(el("div", {class: "legendnote"}, "solid: throughput (left axis); dashed: latency (right axis)"));
    }
  }

  // The headline: one row per scenario, its paired op/s ratio against the baseline as a dot (median) on a bar (95 %
  // interval), on a log axis with a line at 1.0 (no change). Drawn as SVG, so it needs no canvas and prints sharply.
  function drawHeadline(section, headline) {
    const rows = headline.rows;
    const NS = "http://www.w3.org/2000/svg";
    const svgEl = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text != null) e.textContent = text;
      return e;
    };
    const lows = rows.map(r => r.low).filter(v => v > 0), highs = rows.map(r => r.high).filter(v => v > 0);
    const lo = Math.min(1, ...lows) / 1.15, hi = Math.max(1, ...highs) * 1.15;
    const labelW = 300, numW = 190, plotW = 560, rowH = 22, top = 26, W = labelW + plotW + numW;
    const H = top + rows.length * rowH + 10;
    const x = v => labelW + plotW * (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    const svg = svgEl("svg", {width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", class: "headline"});
    const ticks = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10].filter(t => t >= lo && t <= hi);
    ticks.forEach(t => {
      svg.append(svgEl("line", {x1: x(t), x2: x(t), y1: top - 6, y2: H - 6, stroke: t === 1 ? "#1d2733" : "#e3e8ee",
        "stroke-width": t === 1 ? 1.5 : 1}));
      svg.append(svgEl("text", {x: x(t), y: top - 10, "text-anchor": "middle", "font-size": 11, fill: "#667585"}, String(t)));
    });
    rows.forEach((r, i) => {
      const y = top + i * rowH + rowH / 2;
      if (i % 2) svg.append(svgEl("rect", {x: 0, y: y - rowH / 2, width: W, height: rowH, fill: "rgba(31,119,180,0.04)"}));
      svg.append(svgEl("text", {x: labelW - 8, y: y + 4, "text-anchor": "end", "font-size": 12, fill: "#1d2733"}, r.scenario));
      const color = r.high < 1 ? "#b3261e" : r.low > 1 ? "#17703a" : "#1f77b4";
      if (r.low > 0 && r.high > 0) {
        svg.append(svgEl("line", {x1: x(r.low), x2: x(r.high), y1: y, y2: y, stroke: color, "stroke-width": 3,
          "stroke-linecap": "round"}));
      }
      if (r.median > 0) svg.append(svgEl("circle", {cx: x(r.median), cy: y, r: 4.5, fill: color}));
      svg.append(svgEl("text", {x: labelW + plotW + 10, y: y + 4, "font-size": 12, fill: "#1d2733"},
        r.median.toFixed(3) + " [" + r.low.toFixed(3) + ", " + r.high.toFixed(3) + "]" + (r.pairs < 2 ? " 1 pair" : "")));
    });
    const baselines = [...new Set(rows.map(r => r.baseline))].join(", ");
    const box = el("div", {class: "headlinebox", "data-rows": String(rows.length)},
      el("div", {class: "ctitle"}, headline.title),
      el("div", {class: "legendnote"}, "against " + baselines + "; left of the dark line: slower than the baseline;"
        + " red: the whole interval is below 1, green: above 1"));
    box.append(svg);
    section.append(box);
  }

  // For the browser test and for anyone reading the DOM: how many points this chart has and whether its
  // canvas really has ink on it.
  function markDrawn(box, u, data) {
    let points = 0;
    for (let i = 1; i < data.length; i++) for (const v of data[i]) if (v != null) points++;
    box.dataset.points = points;
    box.dataset.inked = cpbenchInk(u);
  }

  function environmentTable(envs) {
    const keys = [];
    envs.forEach(e => Object.keys(e).forEach(k => { if (!keys.includes(k)) keys.push(k); }));
    const t = el("table", {class: "env"});
    const head = el("tr", {}, el("th", {}, ""));
    envs.forEach((e, i) => head.append(el("th", {}, envs.length > 1 ? "environment " + (i + 1) : "environment")));
    t.append(head);
    keys.forEach(k => {
      const row = el("tr", {}, el("td", {}, k));
      envs.forEach(e => row.append(el("td", {}, e[k] == null ? "" : String(e[k]))));
      t.append(row);
    });
    return t;
  }

  function renderLive(live) {
    const box = document.getElementById("live");
    if (!live) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = "";
    box.append(el("b", {}, live.state || "running"), el("b", {}, live.what || ""),
      el("b", {}, "t " + fmt(live.elapsedSeconds, 0) + " s"), el("b", {}, "op/s " + fmt(live.opsPerSecond)),
      el("b", {}, "p50 " + micros(live.p50Micros)), el("b", {}, "p99 " + micros(live.p99Micros)),
      el("b", {}, "ops " + fmt(live.ops)), el("b", {}, "errors " + fmt(live.errors)));
  }

  function render(data) {
    plots.splice(0).forEach(p => p.destroy());
    document.title = data.title;
    document.getElementById("title").textContent = data.title;
    document.getElementById("generated").textContent = (window.CPBENCH_LIVE ? "live view, updated " : "generated ")
      + data.generatedAt + " · " + data.runs.length + " run" + (data.runs.length === 1 ? "" : "s");
    if (data.trend && !window.CPBENCH_LIVE) {
      const p = document.getElementById("generated");
      p.append(el("br"), document.createTextNode("In the results history " + data.trend.store + ": "));
      p.append(el("a", {href: data.trend.href, id: "trend-link"}, "the trends of these runs' " + data.trend.series
          + " series"), document.createTextNode(", over " + data.trend.runs + " runs, change points marked"));
    }
    renderLive(data.live);
    const toc = document.getElementById("toc");
    toc.innerHTML = "";
    const main = document.getElementById("runs");
    main.innerHTML = "";
    data.runs.forEach((run, r) => {
      const id = "run-" + r;
      if (data.runs.length > 1) toc.append(el("a", {href: "#" + id}, run.name));
      const section = el("section", {id, "data-kind": run.kind});
      const kind = el("span", {class: "kind" + (run.incomplete ? " incomplete" : "")}, run.kind + (run.status && run.status !== "OK" ? " · " + run.status : run.incomplete ? " · not all OK" : ""));
      section.append(el("h2", {}, run.name, kind));
      section.append(el("div", {class: "muted"}, run.path + (run.topology ? " · " + run.topology : "")
          + (run.releases ? " · " + run.releases : "")));
      if (run.headline && run.headline.rows && run.headline.rows.length) drawHeadline(section, run.headline);
      (run.notes || []).forEach(n => section.append(el("div", {class: "note"}, "note: " + n)));
      if (run.verdicts && run.verdicts.length) {
        section.append(el("h3", {}, "Checks"));
        run.verdicts.forEach(v => {
          const d = el("div", {class: "verdict"}, el("span", {class: v.ok ? "ok" : "bad"}, v.ok ? "✔ " : "✘ "), v.name + ": ",
            el("span", {class: v.ok ? "ok" : "bad"}, v.verdict));
          if (v.detail) d.append(el("pre", {}, v.detail));
          section.append(d);
        });
      }
      (run.tables || []).forEach(t => {
        section.append(el("h3", {}, t.title));
        section.append(el("div", {class: "tablewrap", html: t.html}));
      });
      if (run.charts && run.charts.length) {
        section.append(el("h3", {}, "Charts"));
        const grid = el("div", {class: "charts"});
        section.append(grid);
        main.append(section);
        run.charts.forEach(c => drawChart(grid, c));
      }
      if (run.environments && run.environments.length) {
        section.append(el("h3", {}, "Environment"));
        section.append(environmentTable(run.environments));
      }
      main.append(section);
    });
    document.body.dataset.charts = String(plots.length);
  }

  render(JSON.parse(document.getElementById("cpbench-data").textContent));

  if (window.CPBENCH_LIVE) {
    let busy = false;
    setInterval(() => {
      if (busy) return;
      busy = true;
      fetch("data.json", {cache: "no-store"}).then(r => r.json()).then(d => {
        const y = window.scrollY;
        render(d);
        window.scrollTo(0, y);
      }).catch(e => {
        const box = document.getElementById("live");
        box.hidden = false;
        box.textContent = "the run has ended or the live view stopped (" + e + "); this page keeps what it last drew";
      }).finally(() => { busy = false; });
    }, 1000);
  }
})();
