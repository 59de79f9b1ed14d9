// perflab report: draws the charts described in #perflab-data with Chart.js, then marks
// <body data-rendered="N">. Errors go to <body data-errors> (window.onerror is set first in the page).
(function () {
  'use strict';
  var PALETTE = ['#3c6fd1', '#e0802b', '#2e9a5b', '#c23b4f', '#7d5bbf', '#8a6d3b', '#d45fb0', '#5f7d8c', '#b8b02a', '#2ab3b8'];

  function fmt(v) {
    if (v === null || v === undefined || !isFinite(v)) { return ''; }
    var a = Math.abs(v);
    if (Number.isInteger(v) && a < 100000) { return String(v); }
    if (a >= 100000) { return v.toExponential(2); }
    if (a >= 100) { return v.toFixed(0); }
    if (a >= 10) { return v.toFixed(1); }
    if (a >= 1) { return v.toFixed(2); }
    return v.toPrecision(2);
  }

  // Percentile axis: x = 1 / (1 - p); label the powers of ten as 0%, 90%, 99%, 99.9%...
  function percentileLabel(x) {
    var nines = Math.log10(x);
    if (Math.abs(nines - Math.round(nines)) > 1e-9) { return null; }
    var n = Math.round(nines);
    if (n === 0) { return '0%'; }
    var p = 100 - 100 / Math.pow(10, n);
    return p.toFixed(Math.max(0, n - 2)) + '%';
  }

  function axis(spec, position, stacked) {
    var a = { position: position, title: { display: !!spec.label, text: spec.label }, stacked: stacked, grid: {} };
    if (spec.scale === 'log' || spec.scale === 'percentile') {
      a.type = 'logarithmic';
    } else if (spec.scale === 'category') {
      a.type = 'category';
    } else {
      a.type = 'linear';
    }
    if (spec.scale === 'percentile') {
      a.min = 1;
      a.ticks = { autoSkip: false, callback: function (v) { return percentileLabel(v); } };
    } else if (spec.scale === 'log') {
      a.ticks = { callback: function (v) {
        var m = v / Math.pow(10, Math.floor(Math.log10(v)));
        return (Math.abs(m - 1) < 1e-9 || Math.abs(m - 2) < 1e-9 || Math.abs(m - 5) < 1e-9) ? fmt(v) : null; } };
    } else if (spec.scale !== 'category') {
      a.ticks = { callback: function (v) { return fmt(v); } };
      if (position !== 'bottom') { a.beginAtZero = true; a.grace = '5%'; }
    }
    return a;
  }

  // Shaded x ranges (the warm-up), drawn under the data.
  var bands = {
    id: 'perflabBands',
    beforeDatasetsDraw: function (chart) {
      var list = chart.options.plugins.perflabBands || [];
      var ctx = chart.ctx, area = chart.chartArea, x = chart.scales.x;
      list.forEach(function (b) {
        var left = Math.max(area.left, x.getPixelForValue(b.from));
        var right = Math.min(area.right, x.getPixelForValue(b.to));
        if (!(right > left)) { return; }
        ctx.save();
        ctx.fillStyle = 'rgba(224, 128, 43, 0.10)';
        ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
        ctx.fillStyle = '#a5601f';
        ctx.font = '12px sans-serif';
        ctx.fillText(b.label, left + 4, area.top + 14);
        ctx.restore();
      });
    }
  };

  // Error bars: a whisker from low to high on each point or bar of a series that has them.
  var errorBars = {
    id: 'perflabErrorBars',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      chart.data.datasets.forEach(function (ds, i) {
        if (!ds.perflabErrors || !chart.isDatasetVisible(i)) { return; }
        var meta = chart.getDatasetMeta(i), scale = chart.scales[ds.yAxisID || 'y'];
        ctx.save();
        var area = chart.chartArea; // a 95% interval of 2 runs can be wider than the axis: clip it
        ctx.beginPath();
        ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
        ctx.clip();
        ctx.strokeStyle = '#1d2330';
        ctx.lineWidth = 1.5;
        meta.data.forEach(function (el, j) {
          var e = ds.perflabErrors[j];
          if (!e) { return; }
          var top = scale.getPixelForValue(e[1]), bottom = scale.getPixelForValue(e[0]), x = el.x;
          ctx.beginPath();
          ctx.moveTo(x, top); ctx.lineTo(x, bottom);
          ctx.moveTo(x - 6, top); ctx.lineTo(x + 6, top);
          ctx.moveTo(x - 6, bottom); ctx.lineTo(x + 6, bottom);
          ctx.stroke();
        });
        ctx.restore();
      });
    }
  };

  function dataset(s, i, spec) {
    var color = s.color || PALETTE[i % PALETTE.length];
    var points = s.y.map(function (y, j) {
      return s.x ? { x: s.x[j], y: y } : y;
    });
    var ds = {
      label: s.name, type: s.type === 'scatter' ? 'scatter' : s.type, data: points,
      borderColor: color, backgroundColor: s.type === 'bar' ? color + 'cc' : color,
      borderWidth: s.type === 'bar' ? 0 : 1.8, yAxisID: s.axis || 'y',
      pointRadius: s.type === 'scatter' ? 3 : (s.points ? 3 : 0), pointHoverRadius: 4,
      spanGaps: false, stepped: s.stepped ? 'middle' : false, tension: 0
    };
    if (s.dashed) { ds.borderDash = [6, 4]; }
    if (s.errors) {
      ds.perflabErrors = s.errors;
    }
    if (s.type === 'bar' && s.x) { ds.barPercentage = 1.0; ds.categoryPercentage = 1.0; }
    return ds;
  }

  function draw(spec) {
    var canvas = document.getElementById('chart-' + spec.id);
    var scales = { x: axis(spec.x, 'bottom', !!spec.stacked), y: axis(spec.y, 'left', !!spec.stacked) };
    if (spec.y2) {
      scales.y2 = axis(spec.y2, 'right', false);
      scales.y2.grid = { drawOnChartArea: false };
    }
    var hasXValues = spec.series.some(function (s) { return !!s.x; });
    var config = {
      type: spec.categories ? 'bar' : 'line',
      data: { labels: spec.categories || undefined, datasets: spec.series.map(function (s, i) { return dataset(s, i, spec); }) },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: hasXValues ? undefined : undefined,
        interaction: { mode: spec.categories ? 'index' : 'nearest', intersect: false },
        scales: scales,
        plugins: {
          legend: { position: 'top', labels: { boxWidth: 14 } },
          perflabBands: spec.bands || [],
          tooltip: { callbacks: { label: function (c) {
            var e = c.dataset.perflabErrors && c.dataset.perflabErrors[c.dataIndex];
            return c.dataset.label + ': ' + fmt(c.parsed.y) + (e ? ' (' + fmt(e[0]) + ' to ' + fmt(e[1]) + ')' : '');
          } } }
        }
      },
      plugins: [bands, errorBars]
    };
    var chart = new Chart(canvas, config);
    var n = 0;
    spec.series.forEach(function (s) { s.y.forEach(function (v) { if (v !== null) { n++; } }); });
    canvas.parentNode.setAttribute('data-points', String(n));
    return chart.width > 0 && chart.height > 0;
  }

  var body = document.body;
  var data = JSON.parse(document.getElementById('perflab-data').textContent);
  var drawn = 0;
  data.charts.forEach(function (spec) {
    try {
      if (draw(spec)) { drawn++; }
    } catch (e) {
      body.setAttribute('data-errors', (body.getAttribute('data-errors') || '') + spec.id + ': ' + e + '; ');
    }
  });
  body.setAttribute('data-rendered', String(drawn));
})();
