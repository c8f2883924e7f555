// The page of `tumble serve`. It knows no game rules: every board after a move comes from the
// server (/api/apply, /api/solve), and the cells to outline are the server's "removed" lists.
// Coordinates are tumble's: x = column from the left, y = row from the BOTTOM.
'use strict';

const $ = (sel) => document.querySelector(sel);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const T = reducedMotion ? { outline: 120, vanish: 60, fall: 80, pause: 300 } : { outline: 340, vanish: 180, fall: 300, pause: 420 };

const ICON_PLAY = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5v14l11-7z"/></svg>';
const ICON_PAUSE = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5h4v14H7zM13 5h4v14h-4z"/></svg>';

const S = {
  games: [],
  game: null, // the entry of /api/games
  width: 0,
  height: 0,
  colours: 0,
  letters: [], // the brush letters of this puzzle
  colourOf: new Map(), // letter -> CSS colour
  board: [], // the start board: rows from the top, one string each
  brush: null,
  mode: 'paint', // 'paint' | 'answer' | 'play'
  solution: null, // the "done" object of the last solve of this board
  step: 0,
  playing: false,
  play: { moves: [], boards: [], removed: [], steps: [] },
  solving: null,
  animToken: 0,
  hint: null,
};

// ---------- small helpers ----------

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
}

function message(text, kind = '') {
  const m = $('#message');
  m.textContent = text || '';
  m.className = 'message' + (kind ? ' ' + kind : '');
}

let pending = 0;
function busy(delta) {
  pending += delta;
  document.body.dataset.busy = String(pending);
}

async function api(path, options = {}) {
  busy(1);
  try {
    const res = await fetch(path, options);
    const type = res.headers.get('content-type') || '';
    const body = type.includes('json') ? await res.json().catch(() => null) : type.startsWith('image/') ? await res.blob() : await res.text();
    if (!res.ok) {
      let why = body && body.error ? body.error : `the server answered ${res.status}`;
      if (res.status === 429) {
        const after = res.headers.get('retry-after');
        why = `The server is busy with other solves${after ? `; try again in ${after} s` : ''}.`;
      }
      throw new Error(why);
    }
    return body;
  } finally {
    busy(-1);
  }
}

const postJson = (path, body) =>
  api(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });

// The board part of pasted text: `#` lines are comments, and one line of a board set
// (`game|board|optimum` or `name|board|record`) is its board, as in the files tumble reads.
function boardPart(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('#'));
  if (lines.length === 1 && lines[0].includes('|')) {
    const [head, board = ''] = lines[0].split('|');
    return { game: head.trim(), board };
  }
  return { game: null, board: lines.join('\n') };
}

function parseRows(text) {
  return boardPart(text)
    .board.split(/[,\n\r;]+/)
    .map((r) => r.replace(/\s+/g, ''))
    .filter((r) => r.length > 0);
}

// A Flood-It board of n×n cells pasted as one line of n² (the benchmark sets' form), as its
// n rows: the server reads such a line the same way.
function squareUp(rows) {
  const len = rows.length === 1 ? rows[0].length : 0;
  const n = Math.round(Math.sqrt(len));
  if (n < 2 || n * n !== len) return rows;
  return Array.from({ length: n }, (_, r) => rows[0].slice(r * n, (r + 1) * n));
}

const boardText = (rows) => rows.join(',');
const isClear = (rows) => rows.every((r) => /^\.*$/.test(r));
const kindOf = () => (S.game ? S.game.kind : 'click');
const objectiveOf = () => $('#objective').value || (S.game ? S.game.objective : 'moves');
const cellAt = (x, y) => $(`#board .cell[data-x="${x}"][data-y="${y}"]`);

function today() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

// ---------- colours ----------

// Extra colours for letters beyond the game's palette: evenly spread hues.
function extraColour(k) {
  return `hsl(${(k * 137.5 + 20) % 360} 62% 52%)`;
}

// The brush letters of the puzzle: the game's letters, as many as its colours.
function puzzleLetters() {
  const letters = [...(S.game.letters || '')];
  const n = S.game.fixed_size ? letters.length : Math.max(1, S.colours || letters.length);
  for (let c = 65; letters.length < n && c <= 90; c++) {
    const ch = String.fromCharCode(c);
    if (!letters.includes(ch)) letters.push(ch);
  }
  return letters.slice(0, n);
}

function buildColours() {
  S.letters = puzzleLetters();
  S.colourOf = new Map();
  const all = [...(S.game.letters || '')];
  all.forEach((ch, k) => S.colourOf.set(ch, S.game.palette[k] || extraColour(k)));
  S.letters.forEach((ch, k) => {
    if (!S.colourOf.has(ch)) S.colourOf.set(ch, S.game.palette[k] || extraColour(k));
  });
}

function colourOf(ch) {
  if (!S.colourOf.has(ch)) S.colourOf.set(ch, extraColour(S.colourOf.size));
  return S.colourOf.get(ch);
}

// Letters are only names for colours: a board written with other letters (the README's dust
// board uses G, B, O, Y, R) is the same puzzle with the game's letters, given in the order they
// first appear, skipping those already on the board. The picture renderer colours such boards
// by that same order, so the page draws them as `tumble render` does.
function canonical(rows) {
  const known = S.letters;
  const spare = [...known];
  for (let c = 65; c <= 90; c++) {
    const ch = String.fromCharCode(c);
    if (!spare.includes(ch)) spare.push(ch);
  }
  const present = [];
  for (const r of rows) for (const ch of r) if (ch !== '.' && !present.includes(ch)) present.push(ch);
  const map = new Map();
  const used = new Set(present.filter((ch) => known.includes(ch)));
  for (const ch of present) {
    if (known.includes(ch)) continue;
    const free = spare.find((l) => !used.has(l));
    if (!free) continue;
    used.add(free);
    map.set(ch, free);
  }
  if (map.size === 0) return rows.slice();
  return rows.map((r) => [...r].map((ch) => map.get(ch) || ch).join(''));
}

// ---------- the board ----------

function boardDims(rows) {
  return { w: rows.reduce((m, r) => Math.max(m, r.length), 0), h: rows.length };
}

function renderBoard(rows, { outline = [], outlineClass = 'next' } = {}) {
  const b = $('#board');
  const { w, h } = boardDims(rows);
  if (b.dataset.w !== String(w) || b.dataset.h !== String(h)) {
    b.textContent = '';
    b.dataset.w = w;
    b.dataset.h = h;
    b.style.setProperty('--w', w);
    b.style.setProperty('--h', h);
    for (let r = 0; r < h; r++) {
      for (let x = 0; x < w; x++) {
        const y = h - 1 - r;
        b.append(el('button', { type: 'button', class: 'cell', 'data-x': x, 'data-y': y, tabindex: r === 0 && x === 0 ? 0 : -1 }));
      }
    }
  }
  const cells = b.children;
  for (let r = 0; r < h; r++) {
    for (let x = 0; x < w; x++) {
      const c = cells[r * w + x];
      const ch = rows[r][x] || '.';
      c.dataset.c = ch;
      c.className = 'cell' + (ch === '.' ? ' empty' : '');
      c.style.background = ch === '.' ? '' : colourOf(ch);
      c.style.opacity = '';
      c.style.transform = '';
      c.setAttribute('aria-label', `(${x},${h - 1 - r}) ${ch === '.' ? 'empty' : ch}`);
      c.textContent = ch !== '.' && !S.letters.includes(ch) ? ch : '';
    }
  }
  for (const [x, y] of outline) {
    const c = cellAt(x, y);
    if (c) c.classList.add(outlineClass);
  }
  b.dataset.board = boardText(rows);
  S.shown = rows;
}

// Where each tile of `to` was in `from` with the cells `removed` taken away, column by column:
// a column whose tiles are those of a column of `from` in the same order fell straight down (or
// slid left with it). Columns that match none (rows squeezed sideways) simply drop in.
function fallMap(from, to, removed) {
  const h = from.length;
  const gone = new Set(removed.map(([x, y]) => `${x},${y}`));
  const column = (rows, x, skip) => {
    const out = [];
    for (let y = 0; y < rows.length; y++) {
      const ch = rows[rows.length - 1 - y][x] || '.';
      if (ch !== '.' && !(skip && skip.has(`${x},${y}`))) out.push({ y, ch });
    }
    return out;
  };
  const { w } = boardDims(from);
  const olds = [];
  for (let x = 0; x < w; x++) olds.push(column(from, x, gone));
  const key = (col) => col.map((t) => t.ch).join('');
  const moves = [];
  let next = 0;
  for (let x = 0; x < boardDims(to).w; x++) {
    const col = column(to, x);
    if (col.length === 0) continue;
    let src = -1;
    for (let k = Math.max(next, x); k < w; k++) {
      if (key(olds[k]) === key(col)) {
        src = k;
        break;
      }
    }
    if (src >= 0) {
      next = src + 1;
      col.forEach((t, i) => moves.push({ x, y: t.y, dx: src - x, dy: olds[src][i].y - t.y }));
    } else {
      col.forEach((t) => {
        const before = from[h - 1 - t.y] ? from[h - 1 - t.y][x] : '.';
        if (before !== t.ch || gone.has(`${x},${t.y}`)) moves.push({ x, y: t.y, drop: true });
      });
    }
  }
  return moves;
}

// Shows one move: the group outlined, then it vanishes and the tiles fall (click games), or the
// region recolours (Flood-It). Resolves when the board shows `to`.
async function animateMove(from, to, removed) {
  const token = ++S.animToken;
  const b = $('#board');
  b.dataset.state = 'animating';
  const alive = () => token === S.animToken;
  try {
    renderBoard(from, { outline: removed, outlineClass: 'doomed' });
    await sleep(T.outline);
    if (!alive()) return;
    const flood = kindOf() === 'floodit';
    if (!flood) {
      for (const [x, y] of removed) {
        const c = cellAt(x, y);
        if (c) c.classList.add('vanish');
      }
      await sleep(T.vanish);
      if (!alive()) return;
    }
    const moves = flood ? [] : fallMap(from, to, removed);
    renderBoard(to, { outline: flood ? removed : [], outlineClass: 'flooded' });
    const first = b.children[0];
    const pitch = first ? first.getBoundingClientRect().width + parseFloat(getComputedStyle(b).columnGap || '0') : 0;
    const anims = [];
    for (const m of moves) {
      const c = cellAt(m.x, m.y);
      if (!c || !c.animate) continue;
      if (m.drop) {
        anims.push(c.animate([{ transform: `translateY(${-pitch * 0.7}px)`, opacity: 0 }, { transform: 'none', opacity: 1 }], { duration: T.fall, easing: 'ease-in' }).finished);
      } else if (m.dx || m.dy) {
        // dy counts rows up (y grows upward) and screen y grows downward.
        const dist = Math.sqrt(Math.abs(m.dy) + Math.abs(m.dx));
        anims.push(c.animate([{ transform: `translate(${m.dx * pitch}px, ${-m.dy * pitch}px)` }, { transform: 'none' }], { duration: T.fall * Math.min(1.4, 0.6 + 0.25 * dist), easing: 'cubic-bezier(.55,0,1,.45)' }).finished);
      }
    }
    await Promise.all(anims.map((p) => p.catch(() => {})));
    if (flood) await sleep(T.fall);
  } finally {
    if (alive()) b.dataset.state = 'idle';
  }
}

function stopAnimation() {
  S.animToken++;
  $('#board').dataset.state = 'idle';
}

// ---------- modes ----------

function setMode(mode) {
  if (mode === 'answer' && !S.solution) mode = 'paint';
  S.mode = mode;
  stopPlaying();
  stopAnimation();
  clearHint();
  for (const b of document.querySelectorAll('.seg button')) b.setAttribute('aria-pressed', String(b.dataset.mode === mode));
  $('#paint-tools').hidden = mode !== 'paint';
  $('#answer-tools').hidden = mode !== 'answer';
  $('#play-tools').hidden = mode !== 'play';
  const b = $('#board');
  b.dataset.mode = mode;
  if (mode === 'paint') renderBoard(S.board);
  if (mode === 'answer') showStep(S.step);
  if (mode === 'play') showPlay();
}

// ---------- the puzzle: game, size, rules, URL ----------

function fillGameSelect() {
  const names = { former: 'NRK Former', figure: 'Figure', dust: 'Dust (Nodiatis)', samegame: 'SameGame', clickomania: 'Clickomania', floodit: 'Flood-It' };
  const sel = $('#game');
  sel.textContent = '';
  for (const g of S.games) sel.append(el('option', { value: g.game, text: names[g.game] || g.game }));
}

function selectGame(name, { keepSize = false } = {}) {
  const g = S.games.find((x) => x.game === name) || S.games[0];
  S.game = g;
  $('#game').value = g.game;
  if (!keepSize || g.fixed_size) {
    S.width = g.width;
    S.height = g.height;
    S.colours = g.colours;
  }
  $('#width').value = S.width;
  $('#height').value = S.height;
  $('#colours').value = S.colours;
  for (const id of ['width', 'height', 'colours']) $('#' + id).disabled = !!g.fixed_size;
  $('#start-field').hidden = g.kind !== 'floodit';
  buildColours();
  buildBrushes();
}

function rules() {
  const r = {};
  for (const k of ['clickable', 'sideways', 'objective']) if ($('#' + k).value) r[k] = $('#' + k).value;
  const mg = parseInt($('#min_group').value, 10);
  if (mg > 0) r.min_group = mg;
  if (kindOf() === 'floodit' && $('#start').value.trim()) r.start = $('#start').value.trim();
  return r;
}

function saveUrl() {
  const p = new URLSearchParams();
  p.set('game', S.game.game);
  if (!S.game.fixed_size) {
    p.set('w', S.width);
    p.set('h', S.height);
    p.set('c', S.colours);
  }
  for (const [k, v] of Object.entries(rules())) p.set(k, v);
  p.set('board', boardText(S.board));
  history.replaceState(null, '', '#' + p.toString());
}

function loadUrl() {
  const hash = location.hash.replace(/^#/, '');
  if (!hash) return false;
  const p = new URLSearchParams(hash);
  if (!p.get('game') || !S.games.some((g) => g.game === p.get('game'))) return false;
  const g = S.games.find((x) => x.game === p.get('game'));
  if (!g.fixed_size) {
    S.width = parseInt(p.get('w'), 10) || g.width;
    S.height = parseInt(p.get('h'), 10) || g.height;
    S.colours = parseInt(p.get('c'), 10) || g.colours;
  }
  selectGame(g.game, { keepSize: true });
  for (const k of ['clickable', 'sideways', 'objective', 'min_group', 'start']) $('#' + k).value = p.get(k) || '';
  if ([...document.querySelectorAll('#rules select, #rules input')].some((e) => e.value)) $('#rules').open = true;
  const rows = parseRows(p.get('board') || '');
  if (rows.length) setBoard(rows, { keepSize: true });
  else return randomBoard().then(() => true);
  return true;
}

// A new start board: drops the answer and the game played on the old one.
function setBoard(rows, { keepSize = false } = {}) {
  rows = canonical(rows);
  const { w, h } = boardDims(rows);
  rows = rows.map((r) => r.padEnd(w, '.'));
  if (!S.game.fixed_size && !keepSize) {
    S.width = w;
    S.height = h;
    const n = new Set(rows.join('').replace(/\./g, '')).size;
    if (n > S.colours) S.colours = n;
    $('#width').value = S.width;
    $('#height').value = S.height;
    $('#colours').value = S.colours;
    buildColours();
    buildBrushes();
  }
  S.board = rows;
  $('#board-text').value = rows.join('\n');
  boardChanged();
}

function boardChanged() {
  cancelSolve();
  S.solution = null;
  S.step = 0;
  S.play = { moves: [], boards: [], removed: [], steps: [] };
  $('#mode-answer').disabled = true;
  $('#result').textContent = '';
  delete $('#result').dataset.optimal;
  $('#moves').textContent = '';
  $('#live').textContent = '';
  $('#play-info').textContent = '';
  drawChart(null);
  const tiles = S.board.join('').replace(/\./g, '').length;
  $('#board-info').textContent = `${S.width || boardDims(S.board).w}×${S.board.length} · ${tiles} tiles`;
  saveUrl();
  setMode(S.mode === 'answer' ? 'paint' : S.mode);
}

async function randomBoard() {
  const q = new URLSearchParams({ game: S.game.game, seed: String(Math.floor(Math.random() * 1e9)) });
  if (!S.game.fixed_size) {
    q.set('width', S.width);
    q.set('height', S.height);
    q.set('colours', S.colours);
  }
  try {
    const r = await api('/api/generate?' + q);
    setBoard(parseRows(r.board), { keepSize: !S.game.fixed_size });
    message('');
  } catch (e) {
    message(e.message, 'error');
  }
}

// ---------- painting ----------

function buildBrushes() {
  const box = $('#brushes');
  box.textContent = '';
  const brushes = [...S.letters];
  if (S.game.kind !== 'floodit') brushes.push('.');
  if (!brushes.includes(S.brush)) S.brush = brushes[0];
  for (const ch of brushes) {
    const name = ch === '.' ? 'empty' : ch;
    const b = el('button', { type: 'button', role: 'radio', class: 'brush' + (ch === '.' ? ' empty' : ''), 'data-letter': ch, 'aria-checked': String(ch === S.brush), 'aria-label': `Brush ${name}`, title: name });
    if (ch !== '.') b.style.background = colourOf(ch);
    b.append(el('span', { text: ch === '.' ? '∅' : ch }));
    b.addEventListener('click', () => {
      S.brush = ch;
      for (const o of box.children) o.setAttribute('aria-checked', String(o.dataset.letter === ch));
    });
    box.append(b);
  }
  const fc = $('#flood-colours');
  fc.textContent = '';
  fc.hidden = S.game.kind !== 'floodit';
  for (const ch of S.letters) {
    const b = el('button', { type: 'button', class: 'brush', 'data-letter': ch, 'aria-label': `Flood with ${ch}`, title: ch });
    b.style.background = colourOf(ch);
    b.append(el('span', { text: ch }));
    b.addEventListener('click', () => playMove(ch));
    fc.append(b);
  }
}

function paintCell(cell) {
  if (!cell || S.brush == null) return false;
  const x = +cell.dataset.x;
  const r = S.board.length - 1 - +cell.dataset.y;
  const row = S.board[r];
  if (!row || row[x] === S.brush) return false;
  S.board[r] = row.slice(0, x) + S.brush + row.slice(x + 1);
  cell.dataset.c = S.brush;
  cell.classList.toggle('empty', S.brush === '.');
  cell.style.background = S.brush === '.' ? '' : colourOf(S.brush);
  cell.textContent = '';
  $('#board').dataset.board = boardText(S.board);
  return true;
}

let painting = null;
function onPointerDown(e) {
  if (S.mode !== 'paint' || e.button > 0) return;
  const cell = e.target.closest('.cell');
  if (!cell) return;
  e.preventDefault();
  painting = { id: e.pointerId, changed: paintCell(cell) };
  try {
    $('#board').setPointerCapture(e.pointerId);
  } catch (_) {
    /* the pointer is gone already */
  }
}
function onPointerMove(e) {
  if (!painting || e.pointerId !== painting.id) return;
  const cell = document.elementFromPoint(e.clientX, e.clientY);
  const c = cell && cell.closest ? cell.closest('#board .cell') : null;
  if (c && paintCell(c)) painting.changed = true;
}
function onPointerUp(e) {
  if (!painting || e.pointerId !== painting.id) return;
  const changed = painting.changed;
  painting = null;
  if (changed) {
    $('#board-text').value = S.board.join('\n');
    boardChanged();
  }
}

function onCellClick(e) {
  const cell = e.target.closest('.cell');
  if (!cell) return;
  if (S.mode === 'paint') {
    // Pointer presses paint on pointerdown; this is a key press (Enter, Space).
    if (e.detail === 0 && paintCell(cell)) boardChanged();
  } else if (S.mode === 'play') {
    const x = +cell.dataset.x;
    const y = +cell.dataset.y;
    if (kindOf() === 'floodit') {
      if (cell.dataset.c !== '.') playMove(cell.dataset.c);
    } else {
      playMove({ x, y });
    }
  }
}

function onBoardKey(e) {
  const cell = e.target.closest('.cell');
  if (!cell) return;
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
  if (!d) return;
  const next = cellAt(+cell.dataset.x + d[0], +cell.dataset.y + d[1]);
  if (!next) return;
  e.preventDefault();
  cell.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

// ---------- solving ----------

async function* sseEvents(res) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const k = line.indexOf(':');
        const field = k < 0 ? line : line.slice(0, k);
        let v = k < 0 ? '' : line.slice(k + 1);
        if (v.startsWith(' ')) v = v.slice(1);
        if (field === 'event') event = v;
        else if (field === 'data') data.push(v);
      }
      if (data.length) yield { event, data: data.join('\n') };
    }
  }
}

function solveBody(rows, timeLimit, extra = {}) {
  return { game: S.game.game, board: boardText(rows), time_limit: timeLimit, ...rules(), ...extra };
}

function timeLimit() {
  const t = parseFloat($('#time-limit').value);
  return t > 0 ? Math.min(t, 60) : 30;
}

function cancelSolve() {
  if (S.solving) {
    S.solving.ctrl.abort();
    S.solving = null;
  }
  $('#solve').disabled = false;
  $('#stop').disabled = true;
  document.body.dataset.solving = '0';
}

function metric(ev) {
  const obj = objectiveOf();
  if (obj === 'score') return ev.score;
  if (obj === 'tiles') return ev.tiles_left;
  return ev.length;
}

async function solve() {
  cancelSolve();
  if (isClear(S.board)) {
    message('The board is empty: paint or load one first.', 'error');
    return;
  }
  const ctrl = new AbortController();
  const run = { ctrl, id: null, best: [], bound: [], t: 0, lastBest: null, lastBound: null };
  S.solving = run;
  document.body.dataset.solving = '1';
  $('#solve').disabled = true;
  $('#stop').disabled = false;
  $('#result').textContent = '';
  delete $('#result').dataset.optimal;
  $('#moves').textContent = '';
  $('#live').textContent = 'Starting…';
  message('');
  drawChart(run);
  const body = solveBody(S.board, timeLimit(), $('#no-proof').checked ? { no_proof: true } : {});
  const start = performance.now();
  const tick = setInterval(() => {
    if (S.solving !== run) return clearInterval(tick);
    run.t = Math.max(run.t, performance.now() - start);
    drawChart(run);
    liveLine(run);
  }, 250);
  let finished = false;
  try {
    busy(1);
    const res = await fetch('/api/solve', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body: JSON.stringify(body), signal: ctrl.signal });
    if (!res.ok) {
      const j = await res.json().catch(() => ({}));
      let why = j.error || `the server answered ${res.status}`;
      if (res.status === 429) why = `The server is busy with other solves; try again in ${res.headers.get('retry-after') || 'a few'} s.`;
      throw new Error(why);
    }
    for await (const ev of sseEvents(res)) {
      if (S.solving !== run) break;
      const d = JSON.parse(ev.data);
      if (ev.event === 'started') run.id = d.id;
      else if (ev.event === 'solution') {
        run.lastBest = d;
        run.best.push({ t: d.elapsed_ms, v: metric(d) });
        run.t = Math.max(run.t, d.elapsed_ms);
      } else if (ev.event === 'bound') {
        run.lastBound = d.lower_bound;
        run.bound.push({ t: d.elapsed_ms, v: d.lower_bound });
        run.t = Math.max(run.t, d.elapsed_ms);
      } else if (ev.event === 'done') {
        finished = true;
        // The chart's time is the server's search time from here on, not the wall clock.
        run.t = Math.max(d.elapsed_ms || 0, ...run.best.map((q) => q.t), ...run.bound.map((q) => q.t), 1);
        if (d.length != null) run.best.push({ t: run.t, v: metric(d) });
        if (objectiveOf() === 'moves' && d.lower_bound != null) run.bound.push({ t: run.t, v: d.lower_bound });
        finishSolve(d, run);
        break;
      } else if (ev.event === 'error') {
        throw new Error(d.error || 'the solve failed');
      }
      drawChart(run);
      liveLine(run);
    }
    if (!finished && S.solving === run) throw new Error('The connection closed before the answer came.');
  } catch (e) {
    if (e.name !== 'AbortError') {
      message(e.message, 'error');
      $('#live').textContent = '';
    }
  } finally {
    busy(-1);
    clearInterval(tick);
    if (S.solving === run) {
      S.solving = null;
      $('#solve').disabled = false;
      $('#stop').disabled = true;
      document.body.dataset.solving = '0';
    }
  }
}

function liveLine(run) {
  const secs = (run.t / 1000).toFixed(1);
  const parts = [];
  if (run.lastBest) {
    const o = objectiveOf();
    parts.push(o === 'score' ? `best score ${run.lastBest.score}` : o === 'tiles' ? `best ${run.lastBest.tiles_left} tiles left` : `best ${run.lastBest.length}`);
  }
  if (run.lastBound != null && objectiveOf() === 'moves') parts.push(`lower bound ${run.lastBound}`);
  $('#live').textContent = `${run.done ? 'Searched' : 'Searching'} ${secs} s${parts.length ? ' · ' + parts.join(' · ') : ''}`;
}

async function stopSolve() {
  const run = S.solving;
  if (!run || !run.id) return;
  $('#stop').disabled = true;
  try {
    await api(`/api/solve/${encodeURIComponent(run.id)}/stop`, { method: 'POST' });
  } catch (e) {
    message(e.message, 'error');
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function resultText(d) {
  const o = d.objective || objectiveOf();
  const n = d.length != null ? d.length : (d.moves || []).length;
  const stopped = d.stopped === 'interrupted' ? ' (stopped)' : d.stopped === 'time' && !d.optimal ? ' (time limit)' : '';
  if (o === 'score') {
    const left = d.tiles_left ? `, ${plural(d.tiles_left, 'tile')} left` : ', board cleared';
    return d.optimal ? `Optimal: score ${d.score} in ${plural(n, 'move')} (proven)` : `Best found: score ${d.score} in ${plural(n, 'move')}${left}${stopped}`;
  }
  if (o === 'tiles') {
    return d.optimal ? `Optimal: ${plural(d.tiles_left, 'tile')} left in ${plural(n, 'move')} (proven)` : `Best found: ${plural(d.tiles_left, 'tile')} left in ${plural(n, 'move')}${stopped}`;
  }
  if (d.tiles_left > 0 && kindOf() !== 'floodit') {
    return d.optimal ? `No way to clear this board (proven); best leaves ${plural(d.tiles_left, 'tile')}` : `Best found leaves ${plural(d.tiles_left, 'tile')}${stopped}`;
  }
  if (d.optimal) return `Optimal: ${plural(n, 'move')} (proven)`;
  return d.lower_bound > 0 ? `Best found: ${n}, lower bound ${d.lower_bound}${stopped}` : `Best found: ${plural(n, 'move')}${stopped}`;
}

function moveLabel(m) {
  if (m.x != null) return `(${m.x},${m.y}) ${m.colour}×${m.size}`;
  return `${m.colour}`;
}

function finishSolve(d, run) {
  run.done = true;
  S.solution = d;
  S.step = 0;
  $('#result').textContent = resultText(d);
  $('#result').dataset.optimal = String(!!d.optimal);
  $('#result').dataset.length = String(d.length != null ? d.length : (d.moves || []).length);
  liveLine(run);
  const list = $('#moves');
  list.textContent = '';
  (d.moves || []).forEach((m, i) => {
    const sw = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    sw.style.background = colourOf(m.colour);
    list.append(el('li', {}, el('button', { type: 'button', 'data-step': i + 1, onclick: () => { setMode('answer'); goStep(i + 1); } }, sw, moveLabel(m))));
  });
  $('#mode-answer').disabled = false;
  setMode('answer');
}

// ---------- the chart ----------

function drawChart(run) {
  const svg = $('#chart');
  const W = 320;
  const H = 130;
  const L = 34;
  const R = 10;
  const TOP = 22;
  const B = 20;
  if (!run || (run.best.length === 0 && run.bound.length === 0)) {
    svg.innerHTML = `<text x="${W / 2}" y="${H / 2}" class="chart-empty" text-anchor="middle">${run ? 'Searching…' : 'Progress of the search shows here'}</text>`;
    return;
  }
  const tEnd = Math.max(run.t, 1);
  const vals = [...run.best, ...run.bound].map((p) => p.v);
  let lo = Math.min(...vals);
  let hi = Math.max(...vals);
  if (hi - lo < 2) {
    lo -= 1;
    hi += 1;
  }
  const X = (t) => L + ((W - L - R) * Math.min(t, tEnd)) / tEnd;
  const Y = (v) => TOP + ((H - TOP - B) * (hi - v)) / (hi - lo);
  const path = (pts) => {
    if (!pts.length) return '';
    let d = `M${X(pts[0].t).toFixed(1)},${Y(pts[0].v).toFixed(1)}`;
    for (let i = 1; i < pts.length; i++) d += `H${X(pts[i].t).toFixed(1)}V${Y(pts[i].v).toFixed(1)}`;
    return d + `H${X(tEnd).toFixed(1)}`;
  };
  const fmt = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`);
  const last = (pts) => pts[pts.length - 1];
  const o = objectiveOf();
  const bestName = o === 'score' ? 'best score' : o === 'tiles' ? 'tiles left' : 'best answer';
  let s = '';
  for (const v of [lo, hi]) s += `<line class="grid" x1="${L}" x2="${W - R}" y1="${Y(v)}" y2="${Y(v)}"/><text class="axis" x="${L - 6}" y="${Y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`;
  s += `<text class="axis" x="${L}" y="${H - 5}">0</text><text class="axis" x="${W - R}" y="${H - 5}" text-anchor="end">${fmt(tEnd)}</text>`;
  if (run.bound.length) s += `<path class="line bound" d="${path(run.bound)}"/>`;
  if (run.best.length) s += `<path class="line best" d="${path(run.best)}"/>`;
  if (run.best.length) s += `<text class="val best" x="${W - R}" y="${Y(last(run.best).v) - 5}" text-anchor="end">${last(run.best).v}</text>`;
  // (the bound's label only where it says something the answer's does not; clear of the
  // bound's last rise, which is drawn at the right edge)
  if (run.bound.length && !(run.best.length && last(run.best).v === last(run.bound).v)) s += `<text class="val bound" x="${W - R - 8}" y="${Y(last(run.bound).v) + 14}" text-anchor="end">${last(run.bound).v}</text>`;
  s += `<g class="legend"><rect class="best" x="${L}" y="6" width="10" height="4" rx="2"/><text x="${L + 14}" y="12">${bestName}</text>`;
  if (run.bound.length || o === 'moves') s += `<rect class="bound" x="${L + 100}" y="6" width="10" height="4" rx="2"/><text x="${L + 114}" y="12">lower bound</text>`;
  s += '</g>';
  svg.innerHTML = s;
}

// ---------- stepping through the answer ----------

function answerBoard(s) {
  return s === 0 ? S.board : parseRows(S.solution.boards[s - 1]);
}

function showStep(s) {
  const d = S.solution;
  if (!d) return;
  const n = (d.moves || []).length;
  S.step = Math.max(0, Math.min(n, s));
  const next = S.step < n && d.removed ? d.removed[S.step] : [];
  renderBoard(answerBoard(S.step), { outline: next, outlineClass: 'next' });
  $('#board').dataset.step = S.step;
  updateStepUi();
}

function updateStepUi() {
  const d = S.solution;
  const n = (d.moves || []).length;
  $('#step-first').disabled = $('#step-prev').disabled = S.step === 0;
  $('#step-next').disabled = $('#step-last').disabled = S.step >= n;
  $('#step-play').innerHTML = S.playing ? ICON_PAUSE : ICON_PLAY;
  $('#step-play').setAttribute('aria-label', S.playing ? 'Pause' : 'Play the answer');
  let info;
  if (S.step === 0) info = n ? `Start · next: ${moveLabel(d.moves[0])}` : 'Nothing to click';
  else if (S.step >= n) info = `After move ${n} of ${n}${isClear(answerBoard(n)) ? ' · cleared' : ''}`;
  else info = `After move ${S.step} of ${n} · next: ${moveLabel(d.moves[S.step])}`;
  $('#step-info').textContent = info;
  for (const b of document.querySelectorAll('#moves button')) {
    const cur = +b.dataset.step === S.step;
    b.classList.toggle('current', cur);
    if (cur) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
}

async function goStep(s, animate = false) {
  const d = S.solution;
  if (!d) return;
  const n = (d.moves || []).length;
  s = Math.max(0, Math.min(n, s));
  if (animate && s === S.step + 1 && d.removed) {
    const from = answerBoard(S.step);
    const removed = d.removed[S.step];
    S.step = s;
    updateStepUi();
    await animateMove(from, answerBoard(s), removed);
    if (S.mode === 'answer' && S.step === s && $('#board').dataset.state === 'idle') showStep(s);
  } else {
    stopAnimation();
    showStep(s);
  }
}

function stopPlaying() {
  S.playing = false;
  if (S.solution && S.mode === 'answer') updateStepUi();
}

async function togglePlay() {
  if (S.playing) return stopPlaying();
  const n = (S.solution.moves || []).length;
  if (S.step >= n) showStep(0);
  S.playing = true;
  updateStepUi();
  await sleep(150);
  while (S.playing && S.mode === 'answer' && S.step < n) {
    await goStep(S.step + 1, true);
    await sleep(T.pause);
  }
  S.playing = false;
  if (S.mode === 'answer') updateStepUi();
}

// ---------- the answer as a picture ----------

// Downloads the answer step by step as a PNG, drawn by the server as `tumble solve --render`
// draws it: each board before its move with the group to click outlined.
async function savePicture() {
  const d = S.solution;
  if (!d) return;
  try {
    // (the answer's moves as they came: the server reads a click's x and y, a colour's letter)
    const picture = await postJson('/api/render', { game: S.game.game, board: boardText(S.board), moves: d.moves, ...rules() });
    const url = URL.createObjectURL(picture);
    const name = `tumble-${S.game.game}-${plural(d.moves.length, 'move')}.png`.replace(/ /g, '-');
    const a = el('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    $('#save-picture').dataset.saved = name;
    message(`Saved ${name}.`);
  } catch (e) {
    message(`The picture could not be made: ${e.message}`, 'error');
  }
}

// ---------- playing it yourself ----------

function playBoard() {
  const p = S.play;
  return p.moves.length ? parseRows(p.boards[p.moves.length - 1]) : S.board;
}

function showPlay() {
  renderBoard(playBoard());
  $('#board').dataset.moves = S.play.moves.length;
  playInfo();
}

function playInfo(extra) {
  const n = S.play.moves.length;
  const rows = playBoard();
  const left = rows.join('').replace(/\./g, '').length;
  let t = `${plural(n, 'move')} made`;
  if (kindOf() !== 'floodit') t += ` · ${plural(left, 'tile')} left`;
  if (n && kindOf() !== 'floodit' && isClear(rows)) t = `Cleared in ${plural(n, 'move')}!`;
  $('#play-info').textContent = extra ? `${t}. ${extra}` : t;
  $('#undo').disabled = $('#restart').disabled = n === 0;
}

let playQueue = Promise.resolve();
function playMove(move) {
  playQueue = playQueue.then(() => doPlayMove(move)).catch(() => {});
  return playQueue;
}

async function doPlayMove(move) {
  if (S.mode !== 'play') return;
  clearHint();
  const moves = [...S.play.moves, move];
  try {
    const r = await postJson('/api/apply', { game: S.game.game, board: boardText(S.board), moves, ...rules() });
    const from = playBoard();
    S.play = { moves, boards: r.boards, removed: r.removed, steps: r.moves || [] };
    $('#board').dataset.moves = moves.length;
    message('');
    await animateMove(from, playBoard(), r.removed[moves.length - 1] || []);
    if (S.mode === 'play') showPlay();
  } catch (e) {
    message(e.message, 'error');
  }
}

function undo() {
  if (!S.play.moves.length) return;
  stopAnimation();
  clearHint();
  const k = S.play.moves.length - 1;
  S.play = { moves: S.play.moves.slice(0, k), boards: S.play.boards.slice(0, k), removed: S.play.removed.slice(0, k), steps: S.play.steps.slice(0, k) };
  showPlay();
}

function restart() {
  stopAnimation();
  clearHint();
  S.play = { moves: [], boards: [], removed: [], steps: [] };
  showPlay();
}

function clearHint() {
  S.hint = null;
  for (const c of document.querySelectorAll('#board .hint')) c.classList.remove('hint');
  for (const c of document.querySelectorAll('#flood-colours .hint')) c.classList.remove('hint');
}

async function solveHere(seconds) {
  const rows = playBoard();
  return postJson('/api/solve', solveBody(rows, seconds));
}

async function hint() {
  const rows = playBoard();
  if (isClear(rows)) return playInfo('Nothing left to click.');
  $('#hint').disabled = true;
  playInfo('Looking for the best next click…');
  try {
    const d = await solveHere(Math.min(3, timeLimit()));
    if (S.mode !== 'play' || boardText(playBoard()) !== boardText(rows)) return;
    if (!d.moves || !d.moves.length) return playInfo('No move helps from here.');
    clearHint();
    S.hint = d.moves[0];
    for (const [x, y] of d.removed ? d.removed[0] : []) {
      const c = cellAt(x, y);
      if (c) c.classList.add('hint');
    }
    if (kindOf() === 'floodit') {
      const b = $(`#flood-colours [data-letter="${d.moves[0].colour}"]`);
      if (b) b.classList.add('hint');
    }
    const what = kindOf() === 'floodit' ? `flood with ${d.moves[0].colour}` : `click ${moveLabel(d.moves[0])}`;
    playInfo(`Hint: ${what} (${d.optimal ? 'optimal' : 'best found'}: ${plural(d.length, 'move')} from here).`);
  } catch (e) {
    playInfo('');
    message(e.message, 'error');
  } finally {
    $('#hint').disabled = false;
  }
}

async function howFar() {
  const rows = playBoard();
  const made = S.play.moves.length;
  $('#how-far').disabled = true;
  playInfo('Solving from here…');
  try {
    let text;
    if (isClear(rows)) {
      text = `The board is clear after ${plural(made, 'move')}.`;
    } else {
      const d = await solveHere(Math.min(10, timeLimit()));
      if (S.mode !== 'play' || boardText(playBoard()) !== boardText(rows)) return;
      const o = d.objective || objectiveOf();
      if (o === 'moves') {
        const total = made + d.length;
        text = d.optimal ? `Optimal from here: ${d.length} more (proven), ${total} in all.` : `Best found from here: ${d.length} more (lower bound ${d.lower_bound}), ${total} in all at best ${made + d.lower_bound}.`;
      } else if (o === 'tiles') {
        text = `${d.optimal ? 'Fewest' : 'Fewest found'}: ${plural(d.tiles_left, 'tile')} left after ${d.length} more, ${made + d.length} in all.`;
      } else {
        text = `${d.optimal ? 'Best' : 'Best found'} from here: score ${d.score} more in ${plural(d.length, 'move')}.`;
      }
    }
    const best = S.solution && S.solution.optimal && objectiveOf() === 'moves' ? S.solution.length : null;
    if (best != null) text += ` The optimum from the start is ${best}.`;
    playInfo(text);
  } catch (e) {
    playInfo('');
    message(e.message, 'error');
  } finally {
    $('#how-far').disabled = false;
  }
}

// ---------- entering boards ----------

// On a phone the ways to enter a board come below the answer, out of sight of the board and
// of the line under it: what entering one did (the board, or what is wrong) is brought into
// view. `ok` is false for a message of what is wrong.
function entered(ok) {
  // (the buttons under the board are shown where the layout is one column: style.css says
  // where that is)
  if (getComputedStyle($('#enter-quick')).display === 'none') return;
  const el = ok ? $('.stage') : $('#message');
  el.scrollIntoView({ block: ok ? 'start' : 'center', behavior: scrolling() });
}

// Whether a board can be dropped or a picture pasted here (not on a touch screen): style.css
// hides the words about it where it cannot.
function byMouse() {
  return getComputedStyle($('.by-mouse')).display !== 'none';
}

// How the page scrolls to what it brings into view: at once where motion is to be reduced.
function scrolling() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

async function useText() {
  const text = $('#board-text').value;
  let rows = parseRows(text);
  if (!rows.length) {
    message('Write the rows of the board first.', 'error');
    return entered(false);
  }
  const named = boardPart(text).game;
  if (named !== S.game.game && S.games.some((g) => g.game === named)) selectGame(named);
  if (kindOf() === 'floodit') rows = squareUp(rows);
  try {
    // The server checks the board (and says what is wrong in the CLI's words), a row a
    // line, so that the line it names is the row's.
    await postJson('/api/apply', { game: S.game.game, board: rows.join('\n'), moves: [], ...rules() });
  } catch (e) {
    message(e.message, 'error');
    return entered(false);
  }
  setBoard(rows);
  setMode('paint');
  message(`Board of ${boardDims(rows).w}×${rows.length} loaded.`, 'ok');
  entered(true);
}

async function loadFormer() {
  const date = $('#former-date').value || today();
  try {
    const r = await api(`/api/former/${encodeURIComponent(date)}`);
    if (S.game.game !== 'former') selectGame('former');
    setBoard(parseRows(r.board));
    setMode('paint');
    message(`NRK Former, ${r.date}.`, 'ok');
    entered(true);
  } catch (e) {
    message(e.message, 'error');
    entered(false);
  }
}

async function readPicture(file) {
  if (!file) return;
  const q = new URLSearchParams({ game: S.game.game });
  if (!S.game.fixed_size) q.set('colours', S.colours);
  message(`Reading ${file.name || 'the picture'}…`);
  try {
    const r = await api('/api/read?' + q, { method: 'POST', headers: { 'Content-Type': file.type || 'application/octet-stream' }, body: file });
    if (r.game && r.game !== S.game.game) selectGame(r.game);
    setBoard(parseRows(r.board));
    setMode('paint');
    message(`Read a ${r.width || boardDims(S.board).w}×${r.height || S.board.length} board from the picture.`, 'ok');
    entered(true);
  } catch (e) {
    message(e.message, 'error');
    entered(false);
  }
}

function setupDrop() {
  const hint = $('#drop-hint');
  let depth = 0;
  const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth++;
    hint.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) hint.hidden = true;
  });
  document.addEventListener('dragover', (e) => {
    if (hasFiles(e)) e.preventDefault();
  });
  document.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    readPicture(e.dataTransfer.files[0]);
  });
  document.addEventListener('paste', (e) => {
    const f = e.clipboardData && [...e.clipboardData.files].find((x) => x.type.startsWith('image/'));
    if (f) {
      e.preventDefault();
      readPicture(f);
    }
  });
}

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role=tab]')];
  const pick = (t) => {
    for (const o of tabs) {
      const on = o === t;
      o.setAttribute('aria-selected', String(on));
      o.tabIndex = on ? 0 : -1;
      $('#' + o.getAttribute('aria-controls')).hidden = !on;
    }
  };
  // On a phone the ways to enter a board come below the answer: the buttons under the board
  // open one of them and bring it into view (a screenshot's file chooser at once).
  for (const b of document.querySelectorAll('#enter-quick [data-tab]')) {
    b.addEventListener('click', () => {
      pick($('#' + b.dataset.tab));
      $('#input-card').scrollIntoView({ block: 'start', behavior: scrolling() });
      const target = $(b.dataset.focus);
      if (target.type === 'file') target.click();
      else target.focus({ preventScroll: true });
    });
  }
  tabs.forEach((t, i) => {
    t.tabIndex = i === 0 ? 0 : -1;
    t.addEventListener('click', () => pick(t));
    t.addEventListener('keydown', (e) => {
      const d = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!d) return;
      const n = tabs[(i + d + tabs.length) % tabs.length];
      pick(n);
      n.focus();
    });
  });
}

async function share() {
  saveUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    message('Link copied: it reopens this puzzle.', 'ok');
  } catch (_) {
    message(`Link to this puzzle: ${location.href}`, 'ok');
  }
}

// ---------- start ----------

async function init() {
  $('#former-date').value = today();
  $('#former-date').max = today();
  setupTabs();
  setupDrop();
  const board = $('#board');
  board.addEventListener('pointerdown', onPointerDown);
  board.addEventListener('pointermove', onPointerMove);
  board.addEventListener('pointerup', onPointerUp);
  board.addEventListener('pointercancel', onPointerUp);
  board.addEventListener('click', onCellClick);
  board.addEventListener('keydown', onBoardKey);
  for (const b of document.querySelectorAll('.seg button')) b.addEventListener('click', () => setMode(b.dataset.mode));
  $('#game').addEventListener('change', () => {
    selectGame($('#game').value);
    for (const e of document.querySelectorAll('#rules select, #rules input')) e.value = '';
    randomBoard();
  });
  for (const id of ['width', 'height', 'colours']) {
    $('#' + id).addEventListener('change', () => {
      const v = parseInt($('#' + id).value, 10);
      if (!(v > 0)) return;
      S[id] = v;
      buildColours();
      buildBrushes();
      randomBoard();
    });
  }
  for (const e of document.querySelectorAll('#rules select, #rules input')) e.addEventListener('change', () => boardChanged());
  $('#clear-board').addEventListener('click', () => {
    const { w, h } = boardDims(S.board);
    S.board = Array.from({ length: h }, () => '.'.repeat(w));
    $('#board-text').value = S.board.join('\n');
    boardChanged();
  });
  $('#random-board').addEventListener('click', randomBoard);
  $('#use-text').addEventListener('click', useText);
  $('#load-former').addEventListener('click', loadFormer);
  $('#picture').addEventListener('change', (e) => readPicture(e.target.files[0]));
  $('#solve').addEventListener('click', solve);
  $('#stop').addEventListener('click', stopSolve);
  $('#step-first').addEventListener('click', () => { stopPlaying(); goStep(0); });
  $('#step-prev').addEventListener('click', () => { stopPlaying(); goStep(S.step - 1); });
  $('#step-next').addEventListener('click', () => { stopPlaying(); goStep(S.step + 1, true); });
  $('#step-last').addEventListener('click', () => { stopPlaying(); goStep(Infinity); });
  $('#step-play').addEventListener('click', togglePlay);
  $('#play-from-here').addEventListener('click', () => {
    const d = S.solution;
    const k = S.step;
    S.play = { moves: d.moves.slice(0, k).map((m) => (m.x != null ? { x: m.x, y: m.y } : m.colour)), boards: d.boards.slice(0, k), removed: (d.removed || []).slice(0, k), steps: d.moves.slice(0, k) };
    setMode('play');
  });
  $('#save-picture').addEventListener('click', savePicture);
  $('#undo').addEventListener('click', undo);
  $('#restart').addEventListener('click', restart);
  $('#hint').addEventListener('click', hint);
  $('#how-far').addEventListener('click', howFar);
  $('#share').addEventListener('click', share);
  window.addEventListener('hashchange', () => {
    if (location.hash.replace(/^#/, '') !== new URLSearchParams(location.hash.slice(1)).toString() || !S.game) return;
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.get('board') !== boardText(S.board) || p.get('game') !== S.game.game) loadUrl();
  });
  drawChart(null);

  try {
    S.games = await api('/api/games');
  } catch (e) {
    message(`Cannot reach the server: ${e.message}`, 'error');
    return;
  }
  fillGameSelect();
  if (!(await loadUrl())) {
    selectGame('former');
    try {
      const r = await api('/api/former/today');
      setBoard(parseRows(r.board));
      const ways = byMouse() ? 'Paint, paste, load or drop a board' : 'Paint, paste or load a board, or read a screenshot';
      message(`Today's NRK Former board (${r.date}). ${ways}, then Solve.`);
    } catch (_) {
      await randomBoard();
    }
  }
  setMode('paint');
  document.body.dataset.ready = '1';
}

init();
