/* sudokit play page: one script for the served page and the offline page.
 *
 * Terms (as in sudokit's Python code):
 * - cell: an index 0 .. n*n-1, row-major; r/c are 0-based here, 1-based in step data.
 * - digit: 1 .. n, written with SYMBOLS ("1-9" then "A-Z" then "a-z"); 0 = empty.
 * - marks: pencil marks, one digit mask a cell (bit d-1 for digit d); 0 = no marks.
 * - game: one puzzle being played: clues, solution, the board (values, marks), the undo and
 *   redo stacks, the time spent; saved to localStorage after each change.
 * - change: [cell, value before, marks before, value after, marks after]; an action (one
 *   undo step) is a list of changes.
 * - cage (killer): cells whose different digits add up to its sum; the layout lists each
 *   cage's cells, sum, outline (cell units) and the digit sets (masks) that make its sum.
 * - hint answer: {kind, detail, text, step}, from the service (POST api/v1/hint) or, offline,
 *   from the hint path embedded in the page (see offlineHint). Every hint is worded by Python: the
 *   path's texts, and config.words for the others; this script only fills in cell names.
 *
 * The page's mode and data come from the JSON in <script id="sudokit-data">.
 */
(function () {
  "use strict";

  var SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  var SAVE_KEY = "sudokit.play.v1";
  var OFFLINE_KEY = "sudokit.offline.v1";
  var MAX_HISTORY = 1000;

  var $ = function (id) { return document.getElementById(id); };
  var config = JSON.parse($("sudokit-data").textContent);
  var offline = config.mode === "offline";

  var S = {
    game: null,      // the game being played (see newGame)
    geo: null,       // geometry of its shape (see geometry)
    sel: 0,          // selected cell
    pencil: false,   // pencil mode: digits toggle marks
    wrong: null,     // cells shown wrong by Check, until the next change
    hint: null,      // the hint answer shown, or null
    hintKey: null,   // the position that hint was asked for
    busy: false,     // a puzzle is being made
    index: 0         // offline: which puzzle
  };

  // Storage: localStorage may be missing or refuse (private windows, some file:// setups).
  function load(key) {
    try { var t = window.localStorage.getItem(key); return t ? JSON.parse(t) : null; }
    catch (e) { return null; }
  }
  function store(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* no storage */ }
  }

  // Geometry --------------------------------------------------------------------------------

  // The houses, peers and nc relation of a game: from the layout a puzzle with rules carries
  // (the page knows no rule of its own), else rows, columns and boxes.
  function geometry(g) {
    var br = g.br, bc = g.bc, lay = g.layout || null;
    var n = br * bc, size = n * n, units = [], unitsOf = [], peers = [], related = [], cageOf = [];
    var cages = lay && lay.cages ? lay.cages : [];
    var r, c, i, j;
    for (i = 0; i < size; i++) cageOf.push(-1);
    cages.forEach(function (cage, k) { cage.cells.forEach(function (cell) { cageOf[cell] = k; }); });
    if (lay) {
      units = lay.houses;
      for (i = 0; i < size; i++) unitsOf.push([]);
      units.forEach(function (unit, u) { unit.forEach(function (cell) { unitsOf[cell].push(u); }); });
    } else {
      for (r = 0; r < n; r++) { var row = []; for (c = 0; c < n; c++) row.push(r * n + c); units.push(row); }
      for (c = 0; c < n; c++) { var col = []; for (r = 0; r < n; r++) col.push(r * n + c); units.push(col); }
      for (var top = 0; top < n; top += br) {
        for (var left = 0; left < n; left += bc) {
          var box = [];
          for (i = 0; i < br; i++) for (j = 0; j < bc; j++) box.push((top + i) * n + left + j);
          units.push(box);
        }
      }
      for (i = 0; i < size; i++) {
        r = Math.floor(i / n); c = i % n;
        var b = Math.floor(r / br) * (n / bc) + Math.floor(c / bc);
        unitsOf.push([r, n + c, 2 * n + b]);
      }
    }
    for (i = 0; i < size; i++) {
      var seen = {};
      unitsOf[i].forEach(function (u) { units[u].forEach(function (p) { if (p !== i) seen[p] = true; }); });
      if (lay) lay.neighbours[i].forEach(function (p) { seen[p] = true; });
      if (cageOf[i] >= 0) cages[cageOf[i]].cells.forEach(function (p) { if (p !== i) seen[p] = true; });
      peers.push(Object.keys(seen).map(Number));
      related.push(lay ? lay.related[i] : []);
    }
    return {
      n: n, br: br, bc: bc, size: size, units: units, unitsOf: unitsOf, peers: peers,
      neighbours: lay ? lay.neighbours : null, related: related, layout: lay, key: geoKey(g),
      cages: cages, cageOf: cageOf
    };
  }

  function geoKey(g) { return g.br + "x" + g.bc + "|" + (g.rules || ""); }

  function cellName(cell) { var n = S.geo.n; return "r" + (Math.floor(cell / n) + 1) + "c" + (cell % n + 1); }
  function cellAt(rc) { return (rc[0] - 1) * S.geo.n + (rc[1] - 1); }
  function bit(d) { return 1 << (d - 1); }
  function has(mask, d) { return (mask >> (d - 1)) & 1; }
  function fmtTime(s) {
    s = Math.floor(s);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  // Games -----------------------------------------------------------------------------------

  function newGame(p) {
    return {
      key: p.key || p.puzzle.join(""),
      shape: p.shape, br: p.box_rows, bc: p.box_cols,
      rules: p.rules || null, layout: p.layout || null,
      puzzle: p.puzzle.slice(), solution: p.solution.slice(),
      values: p.puzzle.slice(), marks: p.puzzle.map(function () { return 0; }),
      history: [], future: [], elapsed: 0, solved: false,
      level: p.level || null, note: p.note || null
    };
  }

  function valid(g) {
    return g && Array.isArray(g.values) && Array.isArray(g.marks) && Array.isArray(g.puzzle) &&
      Array.isArray(g.solution) && g.values.length === g.puzzle.length &&
      g.br * g.bc * g.br * g.bc === g.puzzle.length && Array.isArray(g.history);
  }

  function start(g) {
    S.game = g;
    if (!S.geo || S.geo.key !== geoKey(g)) S.geo = geometry(g);
    S.wrong = null;
    S.sel = Math.min(S.sel, S.geo.size - 1);
    var firstEmpty = g.values.indexOf(0);
    if (g.values[S.sel] || g.puzzle[S.sel]) S.sel = firstEmpty >= 0 ? firstEmpty : 0;
    clearHint();
    buildBoard();
    buildPad();
    render();
    setStatus(g.note || "", "");
    if (g.solved) setStatus("Solved in " + fmtTime(g.elapsed) + ".", "good");
  }

  function save() {
    var g = S.game;
    if (!g) return;
    if (offline) {
      store(OFFLINE_KEY + ":" + g.key, {
        values: g.values, marks: g.marks, history: g.history, future: g.future,
        elapsed: g.elapsed, solved: g.solved
      });
      store(OFFLINE_KEY + ":index:" + config.set, S.index);
    } else {
      store(SAVE_KEY, { game: g, level: $("level").value, size: $("size").value });
    }
  }

  // Board changes -----------------------------------------------------------------------------

  function act(changes) {
    // Keep only real changes; an action with none is not an undo step.
    changes = changes.filter(function (ch) { return ch[1] !== ch[3] || ch[2] !== ch[4]; });
    if (!changes.length || !S.game) return false;
    var g = S.game;
    changes.forEach(function (ch) { g.values[ch[0]] = ch[3]; g.marks[ch[0]] = ch[4]; });
    g.history.push(changes);
    if (g.history.length > MAX_HISTORY) g.history.shift();
    g.future = [];
    afterChange();
    return true;
  }

  function undo() {
    var g = S.game;
    if (!g || g.solved || !g.history.length) return;
    var changes = g.history.pop();
    for (var i = changes.length - 1; i >= 0; i--) {
      var ch = changes[i]; g.values[ch[0]] = ch[1]; g.marks[ch[0]] = ch[2];
    }
    g.future.push(changes);
    S.sel = changes[0][0];
    afterChange();
  }

  function redo() {
    var g = S.game;
    if (!g || g.solved || !g.future.length) return;
    var changes = g.future.pop();
    changes.forEach(function (ch) { g.values[ch[0]] = ch[3]; g.marks[ch[0]] = ch[4]; });
    g.history.push(changes);
    S.sel = changes[0][0];
    afterChange();
  }

  function afterChange() {
    var g = S.game;
    S.wrong = null;
    if (S.hint && positionKey() !== S.hintKey) clearHint();
    var complete = g.values.indexOf(0) < 0;
    var right = complete && g.values.every(function (v, i) { return v === g.solution[i]; });
    if (right && !g.solved) {
      g.solved = true;
      save();
      render();
      showSolved();
      return;
    }
    if (!right) g.solved = false;
    if (complete && !right) setStatus("The board is full, but something is wrong: try Check.", "bad");
    else setStatus("", "");
    save();
    render();
  }

  // Place digit d in cell (toggles it off when already there); clears d from the peers' marks.
  function enterDigit(cell, d) {
    var g = S.game;
    if (!g || g.solved || g.puzzle[cell]) return;
    if (g.values[cell] === d) { act([[cell, d, g.marks[cell], 0, g.marks[cell]]]); return; }
    var changes = [[cell, g.values[cell], g.marks[cell], d, g.marks[cell]]];
    S.geo.peers[cell].forEach(function (p) {
      if (!g.values[p] && has(g.marks[p], d)) changes.push([p, 0, g.marks[p], 0, g.marks[p] & ~bit(d)]);
    });
    act(changes);
  }

  function toggleMark(cell, d) {
    var g = S.game;
    if (!g || g.solved || g.puzzle[cell] || g.values[cell]) return;
    act([[cell, 0, g.marks[cell], 0, g.marks[cell] ^ bit(d)]]);
  }

  function erase(cell) {
    var g = S.game;
    if (!g || g.solved || g.puzzle[cell]) return;
    act([[cell, g.values[cell], g.marks[cell], 0, g.values[cell] ? g.marks[cell] : 0]]);
  }

  function press(d) {
    if (!S.game || S.busy) return;
    if (S.pencil) toggleMark(S.sel, d); else enterDigit(S.sel, d);
  }

  // The digits a cell may hold, given the digits in its peers.
  function allowed(cell) {
    var g = S.game, m = (1 << S.geo.n) - 1;
    S.geo.peers[cell].forEach(function (p) { if (g.values[p]) m &= ~bit(g.values[p]); });
    S.geo.related[cell].forEach(function (p) {
      var v = g.values[p];
      if (v) m &= ~((v > 1 ? bit(v - 1) : 0) | (v < S.geo.n ? bit(v + 1) : 0));
    });
    return m;
  }

  // Rendering ---------------------------------------------------------------------------------

  var cells = [];

  function buildBoard() {
    var geo = S.geo, board = $("board");
    board.textContent = "";
    board.style.setProperty("--n", geo.n);
    board.style.setProperty("--br", geo.br);
    board.style.setProperty("--bc", geo.bc);
    cells = [];
    var lay = geo.layout, walls = {}, shaded = {};
    if (lay) {
      // the rules' borders replace the boxes' (a jigsaw's regions)
      lay.borders.forEach(function (e) { walls[e.join(",")] = true; });
      lay.windows.forEach(function (w) {
        for (var y = w[1]; y < w[1] + w[2]; y++) for (var x = w[0]; x < w[0] + w[2]; x++) shaded[y * geo.n + x] = true;
      });
    }
    for (var i = 0; i < geo.size; i++) {
      var r = Math.floor(i / geo.n), c = i % geo.n;
      var el = document.createElement("div");
      el.className = "cell";
      var right = lay ? walls["v," + (c + 1) + "," + r] : (c + 1) % geo.bc === 0;
      var below = lay ? walls["h," + c + "," + (r + 1)] : (r + 1) % geo.br === 0;
      if (c === geo.n - 1) el.classList.add("last-c"); else if (right) el.classList.add("edge-r");
      if (r === geo.n - 1) el.classList.add("last-r"); else if (below) el.classList.add("edge-b");
      if (lay && lay.tints) { el.classList.add("tinted"); el.style.setProperty("--tint", lay.tints[i]); }
      if (shaded[i]) { el.classList.add("window"); el.style.setProperty("--window", lay.window_tint); }
      el.setAttribute("role", "gridcell");
      el.id = "cell-" + i;
      el.dataset.cell = i;
      board.appendChild(el);
      cells.push(el);
    }
    board.classList.toggle("caged", geo.cages.length > 0);
    $("overlay").setAttribute("viewBox", "0 0 " + geo.n + " " + geo.n);
    $("overlay").setAttribute("preserveAspectRatio", "none");
    drawRules();
  }

  // What the rules add that cell borders and fills cannot show: the diagonals, the killer
  // cages (dotted outlines inset in their cells, the sum in the corner of the first cell, the
  // outline broken round it), and the rules in words under the board.
  function drawRules() {
    var geo = S.geo, lay = geo.layout, svg = $("rules-overlay"), text = $("rules-text");
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + geo.n + " " + geo.n);
    svg.setAttribute("preserveAspectRatio", "none");
    if (lay && lay.diagonals) {
      [[0, geo.n], [geo.n, 0]].forEach(function (x) {
        var line = document.createElementNS(SVG, "line");
        line.setAttribute("class", "diagonal");
        line.setAttribute("x1", x[0]); line.setAttribute("y1", 0);
        line.setAttribute("x2", x[1]); line.setAttribute("y2", geo.n);
        svg.appendChild(line);
      });
    }
    geo.cages.forEach(function (cage) {
      var first = cage.cells[0], x0 = first % geo.n, y0 = Math.floor(first / geo.n);
      var label = String(cage.sum);
      cage.outline.forEach(function (loop, k) {
        var pts = loop.slice(), d;
        if (k === 0) {
          // the first loop starts at the first cell's top-left corner and runs clockwise:
          // it starts after the sum and stops short of it, coming up the left side
          var gapX = 0.1 + 0.13 * label.length, gapY = 0.2;
          d = "M" + (pts[0][0] + gapX) + " " + pts[0][1];
          for (var i = 1; i < pts.length; i++) d += "L" + pts[i][0] + " " + pts[i][1];
          d += "L" + pts[0][0] + " " + (pts[0][1] + gapY);
        } else {
          d = "M" + pts.map(function (p) { return p[0] + " " + p[1]; }).join("L") + "Z";
        }
        var path = document.createElementNS(SVG, "path");
        path.setAttribute("class", "cage");
        path.setAttribute("d", d);
        svg.appendChild(path);
      });
      var sum = document.createElementNS(SVG, "text");
      sum.setAttribute("class", "cage-sum");
      sum.setAttribute("x", x0 + 0.05);
      sum.setAttribute("y", y0 + 0.22);
      sum.textContent = label;
      svg.appendChild(sum);
    });
    text.textContent = lay ? lay.statement : "";
    text.hidden = !lay;
  }

  function buildPad() {
    var n = S.geo.n, pad = $("pad");
    pad.textContent = "";
    // A keypad of box-width rows beside the board; one or two rows under it on a phone.
    pad.style.setProperty("--cols-wide", S.geo.bc);
    pad.style.setProperty("--cols", n <= 9 ? n : Math.ceil(n / 2));
    for (var d = 1; d <= n; d++) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "digit";
      b.dataset.digit = d;
      b.setAttribute("aria-label", "Digit " + SYMBOLS[d - 1]);
      b.appendChild(document.createTextNode(SYMBOLS[d - 1]));
      b.appendChild(document.createElement("small"));
      pad.appendChild(b);
    }
  }

  // Cells breaking a rule: a digit twice in a house, on two neighbour-rule peers (anti-knight,
  // anti-king), or consecutive digits on cells the nc relation ties; in a killer cage, a digit
  // twice, the digits of a full cage that do not make its sum, or those of a cage not yet
  // full that already go past it (all the cage's filled cells are marked).
  function conflicts() {
    var g = S.game, geo = S.geo, bad = {};
    geo.units.forEach(function (unit) {
      var at = {};
      unit.forEach(function (c) {
        var v = g.values[c];
        if (!v) return;
        if (at[v] !== undefined) { bad[c] = true; bad[at[v]] = true; } else at[v] = c;
      });
    });
    if (geo.layout) {
      g.values.forEach(function (v, c) {
        if (!v) return;
        geo.neighbours[c].forEach(function (p) { if (g.values[p] === v) { bad[c] = true; bad[p] = true; } });
        geo.related[c].forEach(function (p) {
          if (g.values[p] && Math.abs(g.values[p] - v) === 1) { bad[c] = true; bad[p] = true; }
        });
      });
    }
    geo.cages.forEach(function (cage) {
      var at = {}, total = 0, filled = [];
      cage.cells.forEach(function (c) {
        var v = g.values[c];
        if (!v) return;
        if (at[v] !== undefined) { bad[c] = true; bad[at[v]] = true; } else at[v] = c;
        total += v;
        filled.push(c);
      });
      var full = filled.length === cage.cells.length;
      if (full ? total !== cage.sum : total >= cage.sum && filled.length) {
        filled.forEach(function (c) { bad[c] = true; });
      }
    });
    return bad;
  }

  // The cage-sum helper: the digit sets the selected cell's cage can still take, of those that
  // make its sum: sets that hold every digit entered in the cage, and whose other digits each
  // empty cell where the player keeps marks could take one of.
  function cageCombos(cage) {
    var g = S.game, entered = 0, twice = false;
    cage.cells.forEach(function (c) {
      var v = g.values[c];
      if (v) { if (entered & bit(v)) twice = true; entered |= bit(v); }
    });
    if (twice) return [];
    return cage.sets.filter(function (set) {
      if ((set & entered) !== entered) return false;
      var rest = set & ~entered;
      return cage.cells.every(function (c) { return g.values[c] || !g.marks[c] || (g.marks[c] & rest); });
    });
  }

  function renderCageHelp() {
    var geo = S.geo, box = $("cage-help"), k = geo.cageOf[S.sel];
    box.hidden = k < 0;
    if (k < 0) return;
    var cage = geo.cages[k], combos = cageCombos(cage), list = $("cage-combos");
    $("cage-title").textContent = "Cage " + cage.sum + " in " + cage.cells.length +
      (cage.cells.length === 1 ? " cell" : " cells") + ": " +
      (combos.length ? combos.length + " of " + cage.sets.length + (cage.sets.length === 1 ? " set" : " sets") + " left"
        : "no set of digits fits");
    list.textContent = "";
    combos.forEach(function (set) {
      var item = document.createElement("li");
      item.className = "combo";
      item.dataset.mask = set;
      item.textContent = markList(set).split(" ").join("+");
      list.appendChild(item);
    });
  }

  // What the shown hint draws, by detail: 1 the region, 2 the pattern's cells, 3 everything.
  function hintView() {
    var h = S.hint, view = {
      region: {}, pattern: {}, bad: {}, place: {}, elim: {}, on: {}, off: {}, cands: {}, digits: {}, links: []
    };
    if (!h || !h.step) return view;
    var st = h.step, geo = S.geo, lv = h.detail;
    var stepCells = (st.cells || []).map(cellAt);
    var placed = (st.placements || []).map(function (p) { return cellAt(p); });
    if (h.kind === "step") {
      var regionCells = [];
      if (st.units && st.units.length) {
        st.units.forEach(function (u) {
          var k = { row: 0, column: 1, box: 2 }[u[0]];
          regionCells = regionCells.concat(geo.units[k * geo.n + u[1] - 1]);
        });
      } else {
        var boxes = {};
        (stepCells.length ? stepCells : placed).forEach(function (c) { boxes[geo.unitsOf[c][2]] = true; });
        Object.keys(boxes).forEach(function (b) { regionCells = regionCells.concat(geo.units[b]); });
      }
      regionCells.forEach(function (c) { view.region[c] = true; });
    }
    if (h.kind === "mistake") {
      stepCells.forEach(function (c) { view.bad[c] = true; });
      return view;
    }
    if (lv >= 2 || h.kind !== "step") {
      stepCells.concat(lv >= 2 ? placed : []).forEach(function (c) { view.pattern[c] = true; });
      (st.digits || []).forEach(function (d) { view.digits[d] = true; });
      if (lv >= 2) (st.candidates || []).forEach(function (x) { view.cands[cellAt(x)] = x[2]; });
    }
    if (lv >= 3) {
      (st.placements || []).forEach(function (p) { view.place[cellAt(p)] = p[2]; });
      (st.eliminations || []).forEach(function (e) {
        var c = cellAt(e); view.elim[c] = (view.elim[c] || 0) | bit(e[2]);
      });
      (st.links || []).forEach(function (l) {
        view.links.push(l);
        var a = (l[0] - 1) * geo.n + l[1] - 1, b = (l[3] - 1) * geo.n + l[4] - 1;
        // Strong: if the first candidate is false, the second is true; weak: if the first is
        // true, the second is false. Colour the ends by what the chain makes of them.
        var from = l[6] ? view.off : view.on, to = l[6] ? view.on : view.off;
        from[a] = (from[a] || 0) | bit(l[2]);
        to[b] = (to[b] || 0) | bit(l[5]);
      });
    }
    return view;
  }

  function render() {
    var g = S.game, geo = S.geo;
    if (!g) return;
    var bad = conflicts(), view = hintView();
    var selVal = g.values[S.sel];
    var peerSet = {};
    geo.peers[S.sel].forEach(function (p) { peerSet[p] = true; });
    for (var i = 0; i < geo.size; i++) {
      var el = cells[i], v = g.values[i], cls = el.classList;
      cls.toggle("given", !!g.puzzle[i]);
      cls.toggle("sel", i === S.sel);
      cls.toggle("peer", !!peerSet[i]);
      cls.toggle("same", !!selVal && v === selVal && i !== S.sel);
      cls.toggle("conflict", !!bad[i]);
      cls.toggle("wrong", !!(S.wrong && S.wrong[i] || view.bad[i]));
      cls.toggle("right", !!g.solved && !g.puzzle[i]);
      cls.toggle("region", !!view.region[i]);
      cls.toggle("pattern", !!view.pattern[i]);
      el.textContent = "";
      var label = cellName(i);
      if (v) {
        var span = document.createElement("span");
        span.className = "v";
        span.textContent = SYMBOLS[v - 1];
        el.appendChild(span);
        label += ", " + SYMBOLS[v - 1] + (g.puzzle[i] ? " (clue)" : "");
      } else if (view.place[i]) {
        var ghost = document.createElement("span");
        ghost.className = "v ghost";
        ghost.textContent = SYMBOLS[view.place[i] - 1];
        el.appendChild(ghost);
        label += ", empty";
      } else {
        // Without pencil marks of the player's, show the candidates the hint reasons on.
        var own = g.marks[i], m = own || view.cands[i] || 0, elim = view.elim[i] || 0;
        var on = view.on[i] || 0, off = view.off[i] || 0;
        if (m || elim || on || off) {
          var box = document.createElement("div");
          box.className = own ? "marks" : "marks lent";
          for (var d = 1; d <= geo.n; d++) {
            var s = document.createElement("span");
            if (has(m, d) || has(elim, d) || has(on, d) || has(off, d)) s.textContent = SYMBOLS[d - 1];
            if (has(elim, d)) s.className = "elim" + (has(m, d) ? "" : " was-off");
            else if (has(on, d)) s.className = "on";
            else if (has(off, d)) s.className = "off";
            else if (has(m, d) && (selVal === d || view.digits[d] && view.pattern[i])) s.className = "hl";
            box.appendChild(s);
          }
          el.appendChild(box);
        }
        label += own ? ", marks " + markList(own) : ", empty";
      }
      el.setAttribute("aria-label", label);
      el.setAttribute("aria-selected", i === S.sel ? "true" : "false");
    }
    $("board").setAttribute("aria-activedescendant", "cell-" + S.sel);
    drawLinks(view.links);
    renderPad();
    renderCageHelp();
    $("undo").disabled = !g.history.length;
    $("redo").disabled = !g.future.length;
    $("pencil").setAttribute("aria-pressed", S.pencil ? "true" : "false");
    $("pad").classList.toggle("pencil-on", S.pencil);
    $("badge").textContent = g.level || "";
    $("timer").textContent = fmtTime(g.elapsed);
  }

  function markList(m) {
    var out = [];
    for (var d = 1; d <= S.geo.n; d++) if (has(m, d)) out.push(SYMBOLS[d - 1]);
    return out.join(" ");
  }

  function renderPad() {
    var g = S.game, n = S.geo.n, count = [];
    for (var d = 0; d <= n; d++) count.push(0);
    g.values.forEach(function (v) { count[v]++; });
    var buttons = $("pad").children;
    for (var i = 0; i < buttons.length; i++) {
      var dd = i + 1, left = n - count[dd];
      buttons[i].classList.toggle("done", left <= 0);
      buttons[i].lastChild.textContent = left > 0 ? String(left) : "";
    }
  }

  var SVG = "http://www.w3.org/2000/svg";

  function drawLinks(links) {
    var svg = $("overlay"), geo = S.geo;
    svg.textContent = "";
    if (!links.length) return;
    var defs = document.createElementNS(SVG, "defs");
    [["arrow-strong", "var(--accent)"], ["arrow-weak", "var(--bad)"]].forEach(function (a) {
      var mk = document.createElementNS(SVG, "marker");
      mk.setAttribute("id", a[0]);
      mk.setAttribute("viewBox", "0 0 10 10");
      mk.setAttribute("refX", "9"); mk.setAttribute("refY", "5");
      mk.setAttribute("markerUnits", "userSpaceOnUse");
      var sz = String(Math.max(0.16, 1.4 / geo.bc / 2));
      mk.setAttribute("markerWidth", sz); mk.setAttribute("markerHeight", sz);
      mk.setAttribute("orient", "auto-start-reverse");
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", "M0,0 L10,5 L0,10 z");
      path.style.fill = a[1];
      mk.appendChild(path);
      defs.appendChild(mk);
    });
    svg.appendChild(defs);
    links.forEach(function (l) {
      var p = slot(l[0], l[1], l[2]), q = slot(l[3], l[4], l[5]);
      var dx = q[0] - p[0], dy = q[1] - p[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
      var cut = Math.min(0.18, len / 3), ux = dx / len, uy = dy / len;
      var x1 = p[0] + ux * cut, y1 = p[1] + uy * cut, x2 = q[0] - ux * cut, y2 = q[1] - uy * cut;
      // A slight bend keeps links along one line apart.
      var bend = Math.min(0.35, len * 0.12);
      var cx = (x1 + x2) / 2 - uy * bend, cy = (y1 + y2) / 2 + ux * bend;
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", "M" + x1 + "," + y1 + " Q" + cx + "," + cy + " " + x2 + "," + y2);
      path.setAttribute("class", "link " + (l[6] ? "strong" : "weak"));
      path.setAttribute("marker-end", "url(#arrow-" + (l[6] ? "strong" : "weak") + ")");
      svg.appendChild(path);
    });
  }

  // The centre of digit d's pencil-mark slot in cell (r, c), 1-based, in board units.
  function slot(r, c, d) {
    var geo = S.geo, k = d - 1;
    return [c - 1 + ((k % geo.bc) + 0.5) / geo.bc, r - 1 + (Math.floor(k / geo.bc) + 0.5) / geo.br];
  }

  function setStatus(text, kind) {
    var el = $("status");
    el.textContent = text;
    el.className = "status" + (kind ? " " + kind : "");
  }

  // Check, solved -----------------------------------------------------------------------------

  function check() {
    var g = S.game;
    if (!g) return;
    var wrong = {}, count = 0, empty = 0;
    g.values.forEach(function (v, i) {
      if (!v) empty++;
      else if (v !== g.solution[i]) { wrong[i] = true; count++; }
    });
    S.wrong = count ? wrong : null;
    if (count) setStatus(count + (count === 1 ? " digit is" : " digits are") + " wrong (marked in red).", "bad");
    else if (empty) setStatus("All correct so far; " + empty + " to go.", "good");
    else setStatus("Solved in " + fmtTime(g.elapsed) + ".", "good");
    render();
  }

  function showSolved() {
    var g = S.game, dlg = $("solved");
    $("solved-text").textContent = "Solved in " + fmtTime(g.elapsed) + (g.level ? " (" + g.level + ")" : "") + ".";
    setStatus("Solved in " + fmtTime(g.elapsed) + ".", "good");
    $("solved-next").hidden = offline && S.index >= config.puzzles.length - 1;
    if (typeof dlg.showModal === "function" && !dlg.open) dlg.showModal();
    else dlg.setAttribute("open", "");
  }

  // Hints -------------------------------------------------------------------------------------

  function positionKey() { return S.game.values.join(",") + "|" + S.game.marks.join(","); }

  function clearHint() {
    S.hint = null;
    S.hintKey = null;
    var t = $("hint-text");
    t.className = "hint-text";
    t.textContent = "Stuck? Ask for a hint: first where to look, then what, then why.";
    $("apply").hidden = true;
    $("dismiss").hidden = true;
    var chips = document.querySelectorAll("[data-hint]");
    for (var i = 0; i < chips.length; i++) chips[i].classList.remove("active");
  }

  function showHint(answer) {
    S.hint = answer;
    S.hintKey = positionKey();
    var t = $("hint-text");
    t.textContent = answer.text;
    t.className = "hint-text shown" + (answer.kind === "mistake" ? " mistake" : "");
    var st = answer.step;
    var applicable = answer.detail === 3 && st && (answer.kind === "step" || answer.kind === "reveal") &&
      ((st.placements || []).length || (st.eliminations || []).length);
    $("apply").hidden = !applicable;
    $("dismiss").hidden = false;
    var chips = document.querySelectorAll("[data-hint]");
    for (var i = 0; i < chips.length; i++) chips[i].classList.toggle("active", Number(chips[i].dataset.hint) === answer.detail);
    render();
  }

  function askHint(detail) {
    var g = S.game;
    if (!g || S.busy) return;
    if (!detail) detail = S.hint && S.hintKey === positionKey() ? Math.min(3, S.hint.detail + 1) : 1;
    if (offline) { showHint(offlineHint(detail)); return; }
    var body = { shape: g.shape, puzzle: g.puzzle, grid: g.values, marks: g.marks, detail: detail };
    var key = positionKey();
    $("hint-text").textContent = "Thinking…";
    fetch("api/v1/hint", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (res) {
        if (positionKey() !== key) return;  // the board changed while we waited
        if (!res.ok) throw new Error(res.body.error || "the server refused the hint");
        showHint(res.body);
      })
      .catch(function (e) {
        $("hint-text").textContent = "No hint: " + e.message;
      });
  }

  // Offline: the next step of the hint path embedded in the page, worded by Python (the
  // path's hint texts, and config.words filled in: the same words as the server's).
  function offlineHint(detail) {
    var g = S.game, p = config.puzzles[S.index], geo = S.geo;
    var wrong = [], off = [], empty = 0, i;
    for (i = 0; i < geo.size; i++) {
      var v = g.values[i];
      if (!v) {
        empty++;
        if (g.marks[i] && !has(g.marks[i], g.solution[i])) off.push(i);
      } else if (v !== g.solution[i]) wrong.push(i);
    }
    var words = function (kind, fill) {
      return config.words[kind][detail - 1].replace(/\{(\w+)\}/g, function (_, k) { return fill[k]; });
    };
    var names = function (list) {
      var s = list.slice(0, 6).map(cellName).join(", ");
      return list.length > 6 ? s + " and " + (list.length - 6) + " more" : s;
    };
    var mistake = function (kind, list) {
      var text = words(kind, { cells: names(list), s: list.length > 1 ? "s" : "" });
      return { kind: "mistake", detail: detail, text: text, step: stepOf("mistake", detail > 1 ? list : [], text) };
    };
    if (wrong.length) return mistake("wrong", wrong);
    if (!empty) return { kind: "solved", detail: detail, text: words("solved", {}), step: null };
    if (off.length) return mistake("marks", off);
    var steps = p.steps;
    var pending = function (s) {
      return s.step.placements.some(function (pl) { return !g.values[cellAt(pl)]; });
    };
    var elimsShown = function (s) {
      return s.step.eliminations.every(function (e) {
        var c = cellAt(e);
        return g.values[c] || (g.marks[c] && !has(g.marks[c], e[2]));
      });
    };
    // The first step whose placement is still to make; before it, the run of steps that only
    // eliminate (they lead to it): the first of those whose eliminations the marks don't show.
    var j = steps.length;
    for (i = 0; i < steps.length; i++) if (pending(steps[i])) { j = i; break; }
    var k = j;
    while (k > 0 && !steps[k - 1].step.placements.length) k--;
    for (i = k; i < j; i++) if (!elimsShown(steps[i])) return pathHint(steps[i], detail);
    if (j < steps.length) return pathHint(steps[j], detail);
    // The path ends here (the logic engine got stuck): reveal a cell, the first of the
    // server's order (fewest candidates first) that the player has left empty.
    var cell = -1;
    for (i = 0; i < p.reveal.length && cell < 0; i++) if (!g.values[p.reveal[i]]) cell = p.reveal[i];
    if (cell < 0) cell = g.values.indexOf(0);
    var digit = g.solution[cell];
    var text = words("reveal", { digit: SYMBOLS[digit - 1], cell: cellName(cell) });
    var st = stepOf("reveal", detail === 3 ? [cell] : [], text);
    if (detail === 3) st.placements = [[Math.floor(cell / geo.n) + 1, cell % geo.n + 1, digit]];
    return { kind: "reveal", detail: detail, text: text, step: st };
  }

  function pathHint(s, detail) {
    return { kind: "step", detail: detail, text: s.hints[detail - 1], step: s.step };
  }

  function stepOf(kind, list, text) {
    var n = S.geo.n;
    return {
      technique: kind, rating: 0, placements: [], eliminations: [], links: [], units: [], digits: [],
      cells: list.map(function (c) { return [Math.floor(c / n) + 1, c % n + 1]; }), text: text
    };
  }

  // Apply the shown detail-3 step: its placements, and its eliminations as pencil marks (a cell
  // without marks first gets every digit its peers allow).
  function applyHint() {
    var h = S.hint, g = S.game;
    if (!h || !h.step || h.detail !== 3) return;
    var changes = [], after = {};
    var cur = function (c) { return after[c] || [g.values[c], g.marks[c]]; };
    (h.step.eliminations || []).forEach(function (e) {
      var c = cellAt(e), now = cur(c);
      if (now[0]) return;
      var m = now[1] || allowed(c);
      after[c] = [0, m & ~bit(e[2])];
    });
    (h.step.placements || []).forEach(function (p) {
      var c = cellAt(p);
      if (!g.values[c]) after[c] = [p[2], cur(c)[1]];
    });
    Object.keys(after).forEach(function (c) {
      c = Number(c);
      changes.push([c, g.values[c], g.marks[c], after[c][0], after[c][1]]);
    });
    (h.step.placements || []).forEach(function (p) {
      var c = cellAt(p), d = p[2];
      S.geo.peers[c].forEach(function (q) {
        var now = after[q] || [g.values[q], g.marks[q]];
        if (!now[0] && has(now[1], d) && !after[q]) changes.push([q, 0, g.marks[q], 0, g.marks[q] & ~bit(d)]);
      });
    });
    clearHint();
    if (h.step.placements && h.step.placements.length) S.sel = cellAt(h.step.placements[0]);
    act(changes);
  }

  // Making puzzles, and the offline set -------------------------------------------------------

  function setBusy(on, text) {
    S.busy = on;
    $("spinner").hidden = !on;
    $("spinner-text").textContent = text || "Making a puzzle…";
    $("new").disabled = on;
    $("daily").disabled = on;
    $("board").setAttribute("aria-busy", on ? "true" : "false");
  }

  // A JSON answer of the service, or an Error carrying its message.
  function getJSON(url) {
    return fetch(url).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw new Error(j.error || "the server refused (" + r.status + ")");
        return j;
      });
    });
  }

  // A served puzzle (GET api/v1/puzzle or api/v1/daily) with its solution, as a game.
  function fetchGame(url, busyText) {
    if (S.busy) return;
    setBusy(true, busyText);
    getJSON(url)
      .then(function (p) {
        return getJSON("api/v1/puzzle/" + encodeURIComponent(p.id) + "/solution").then(function (s) {
          // Grids come as {shape, text, cells}; a game holds the cells.
          p.puzzle = p.cells;
          p.solution = s.cells;
          p.key = p.id;
          return p;
        });
      })
      .then(function (p) {
        setBusy(false);
        var g = newGame(p);
        g.id = p.id;
        g.note = p.date ? "Daily puzzle of " + p.date + "." : null;
        start(g);
        save();
        $("board").focus();
      })
      .catch(function (e) {
        setBusy(false);
        setStatus("Could not get a puzzle: " + e.message, "bad");
      });
  }

  function fetchNew() {
    var level = $("level").value, size = $("size").value;
    var slow = level === "diabolical" || level === "fiendish" || Number(size) >= 12;
    fetchGame("api/v1/puzzle?level=" + encodeURIComponent(level) + "&shape=" + encodeURIComponent(size),
      "Finding " + (/^[aeiou]/.test(level) ? "an " : "a ") + level + " " + size + "×" + size + " puzzle…" +
      (slow ? " Making one can take a while." : ""));
  }

  function fetchDaily() {
    var level = $("level").value;
    fetchGame("api/v1/daily?level=" + encodeURIComponent(level), "Finding today's " + level + " puzzle…");
  }

  // The bank's counts by shape and level, shown in the level list (levels the bank lacks
  // are still offered: the service makes one).
  var catalog = null;
  function showCatalog() {
    if (!catalog) return;
    var size = Number($("size").value), shape = null, i;
    for (i = 0; i < catalog.shapes.length; i++) if (catalog.shapes[i].n === size) shape = catalog.shapes[i];
    var options = $("level").options;
    for (i = 0; i < options.length; i++) {
      var name = options[i].value, count = shape ? shape.levels[name] || 0 : 0;
      var label = name.charAt(0).toUpperCase() + name.slice(1);
      options[i].textContent = count ? label + " · " + count : label;
    }
  }
  function fetchCatalog() {
    getJSON("api/v1/catalog").then(function (c) { catalog = c; showCatalog(); }).catch(function () { /* optional */ });
  }

  function openOffline(index) {
    var list = config.puzzles;
    S.index = Math.max(0, Math.min(list.length - 1, index));
    var p = list[S.index];
    var g = newGame(p);
    var saved = load(OFFLINE_KEY + ":" + g.key);
    if (saved && Array.isArray(saved.values) && saved.values.length === g.values.length) {
      g.values = saved.values; g.marks = saved.marks; g.history = saved.history || [];
      g.future = saved.future || []; g.elapsed = saved.elapsed || 0; g.solved = !!saved.solved;
    }
    $("which").textContent = "Puzzle " + (S.index + 1) + " of " + list.length;
    $("prev").disabled = S.index === 0;
    $("next").disabled = S.index === list.length - 1;
    start(g);
    save();
  }

  // Input -------------------------------------------------------------------------------------

  function move(dr, dc) {
    var n = S.geo.n, r = Math.floor(S.sel / n), c = S.sel % n;
    r = (r + dr + n) % n; c = (c + dc + n) % n;
    S.sel = r * n + c;
    render();
  }

  function digitOfKey(e) {
    var n = S.geo.n, key = e.key;
    // Shift+digit gives "!" and friends on many layouts: read the physical key then.
    var m = /^(?:Digit|Numpad)([0-9])$/.exec(e.code || "");
    if (m && e.shiftKey) key = m[1];
    if (key.length !== 1) return 0;
    var sym = n <= 35 ? key.toUpperCase() : key;
    var d = SYMBOLS.indexOf(sym) + 1;
    return d >= 1 && d <= n ? d : 0;
  }

  function onKey(e) {
    if (!S.game) return;
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    if ($("solved").open) return;
    var ctrl = e.ctrlKey || e.metaKey, key = e.key;
    if (ctrl && !e.altKey) {
      var lower = key.toLowerCase();
      if (lower === "z" && !e.shiftKey) { undo(); e.preventDefault(); }
      else if (lower === "y" || lower === "z" && e.shiftKey) { redo(); e.preventDefault(); }
      return;
    }
    if (e.altKey) return;
    var onButton = tag === "BUTTON" || tag === "SUMMARY";
    switch (key) {
      case "ArrowUp": move(-1, 0); e.preventDefault(); return;
      case "ArrowDown": move(1, 0); e.preventDefault(); return;
      case "ArrowLeft": move(0, -1); e.preventDefault(); return;
      case "ArrowRight": move(0, 1); e.preventDefault(); return;
      case "Backspace": case "Delete": erase(S.sel); e.preventDefault(); return;
      case "Escape": if (S.hint) { clearHint(); render(); } return;
      case " ":
        if (onButton) return;
        S.pencil = !S.pencil; render(); e.preventDefault(); return;
      default:
    }
    if (S.busy) return;
    var d = digitOfKey(e);
    if (d) {
      if (e.shiftKey && !S.pencil) toggleMark(S.sel, d); else press(d);
      e.preventDefault();
      return;
    }
    if (key === "0" && S.geo.n <= 9) { erase(S.sel); e.preventDefault(); return; }
    var k = key.toLowerCase();
    if (k === "p") { S.pencil = !S.pencil; render(); e.preventDefault(); }
    else if (k === "u") { undo(); e.preventDefault(); }
    else if (k === "h") { askHint(0); e.preventDefault(); }
    else if (k === "c") { check(); e.preventDefault(); }
  }

  function wire() {
    $("board").addEventListener("pointerdown", function (e) {
      var el = e.target.closest ? e.target.closest(".cell") : null;
      if (!el) return;
      S.sel = Number(el.dataset.cell);
      render();
      $("board").focus({ preventScroll: true });
      e.preventDefault();
    });
    $("pad").addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest(".digit") : null;
      if (b) press(Number(b.dataset.digit));
    });
    $("pencil").addEventListener("click", function () { S.pencil = !S.pencil; render(); });
    $("erase").addEventListener("click", function () { erase(S.sel); });
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("check").addEventListener("click", check);
    $("apply").addEventListener("click", applyHint);
    $("dismiss").addEventListener("click", function () { clearHint(); render(); });
    var chips = document.querySelectorAll("[data-hint]");
    for (var i = 0; i < chips.length; i++) {
      chips[i].addEventListener("click", function (e) { askHint(Number(e.currentTarget.dataset.hint)); });
    }
    document.addEventListener("keydown", onKey);
    $("solved").addEventListener("close", function () {
      if ($("solved").returnValue === "next") {
        if (offline) openOffline(S.index + 1); else fetchNew();
      }
      $("board").focus();
    });
    if (offline) {
      $("prev").addEventListener("click", function () { openOffline(S.index - 1); });
      $("next").addEventListener("click", function () { openOffline(S.index + 1); });
    } else {
      $("new").addEventListener("click", fetchNew);
      $("daily").addEventListener("click", fetchDaily);
      $("level").addEventListener("change", save);
      $("size").addEventListener("change", function () { showCatalog(); save(); });
    }
    // The clock runs while the page is shown and the puzzle unsolved.
    setInterval(function () {
      var g = S.game;
      if (!g || g.solved || S.busy || document.hidden) return;
      g.elapsed += 1;
      $("timer").textContent = fmtTime(g.elapsed);
      if (g.elapsed % 5 === 0) save();
    }, 1000);
    window.addEventListener("pagehide", save);
  }

  function init() {
    wire();
    if (offline) {
      $("choose-offline").hidden = false;
      if (!config.puzzles.length) { setStatus("This page holds no puzzles.", "bad"); return; }
      var index = load(OFFLINE_KEY + ":index:" + config.set);
      openOffline(typeof index === "number" ? index : 0);
    } else {
      $("choose-served").hidden = false;
      var saved = load(SAVE_KEY);
      if (saved && saved.level) $("level").value = saved.level;
      if (saved && saved.size) $("size").value = saved.size;
      fetchCatalog();
      if (saved && valid(saved.game)) start(saved.game); else fetchNew();
    }
    $("board").focus();
  }

  // For tests and the console.
  window.sudokit = {
    state: function () { return S; },
    config: config,
    hint: askHint,
    show: showHint,
    enter: enterDigit
  };

  init();
})();
