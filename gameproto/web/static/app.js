// gameproto's page: list the engines and games, create, join, queue, watch,
// play (CLICK, KEY and TEXT actions) and replay games of any engine.
//
// It speaks the engine JSON protocol over the WebSocket at /engine (one JSON
// text message each) and reads the HTTP API at /api.  Plain modern JS, no
// build step, nothing loaded from elsewhere.

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const ID_PREFIX = "gp-";           // ids inside a display, kept apart from the page's own
const MAX_ELEMENTS = 20000;        // tags drawn from one display at most
const MAX_DEPTH = 64;              // nesting of "content" at most
const GAMES_PAGE = 10;             // games per page of the listing
const REFRESH_MS = 3000;           // the listing's refresh period
const DOUBLE_CLICK_MS = 300;       // wait for a double click before sending LEFT
const ZOOM_MAX = 8;                // the closest view of the board: 8 times its fitted size
const ZOOM_STEP = 1.5;             // each press of + or -
const DRAG_PX = 6;                 // a pointer that moves further drags the board: no click
const DEFAULT_MAX_LENGTH = 64;
const TICK_MS = 250;               // the countdowns' refresh period
// Tags that could run code or leave the page; animations that could set a link are checked too.
const BLOCKED_TAGS = new Set(["script", "foreignobject", "iframe", "object", "embed", "a",
                              "handler", "listener", "html", "body", "style", "link", "meta"]);
const ANIMATIONS = new Set(["set", "animate", "animatetransform", "animatemotion"]);

const $ = (selector) => document.querySelector(selector);

const state = {
  engines: [],
  matchmaking: new Map(),  // engine name -> the title of its protocol's matchmaking (/api/matchmaking)
  waiting: new Map(),      // engine name -> the names waiting at its matchmaking now
  ws: null,
  connected: false,
  retry: 1000,
  mode: "lobby",        // lobby, queued, seated, watching, ended, replay
  pending: null,        // {kind: "create"|"join"|"queue"|"watch", form?, engine? (queue)}
  queuedAt: null,       // the engine whose matchmaking the page waits at (mode "queued")
  afterLeft: null,      // what to do once the server says "left"
  game: null,           // {id, engine, player (null: spectator), players}
  display: null,        // the display shown
  requested: [],        // the actions asked of this page's seat
  gameState: null,
  awaiting: false,      // an action was sent, no answer yet
  noteTurn: null,       // the turn the page's notes are of (a new turn clears them)
  ended: false,
  confirmAction: null,  // {action, text} waiting for the inline confirmation
  leftTimer: null,      // a LEFT click waiting to see whether it becomes DOUBLE
  downButton: null,
  version: 0,           // displays rendered so far
  games: {offset: 0, status: "", total: 0, last: ""},
  replay: null,         // {id, engine, turn, turns, player, seats, seq}
  rejoin: null,         // {game, player}: the seat to take back once connected again
  view: {zoom: 1, cx: null, cy: null},  // the board's zoom and centre (display units)
  dragged: false,       // the pointer last let go ended a drag of the board (no click)
  waitingFor: [],       // the players the game waits for (player numbers)
  clocks: new Map(),    // player number -> when its turn clock runs out (Date.now() ms)
  colours: null,        // each seat's colour, when the engine declares them
  pick: null,           // {key, chosen: Set of zone indexes}: a TEXT made by clicking zones
  origin: null,         // how the game came: {kind: "queue"|"create", engine, ...} (play again)
  scrollOnDraw: false,  // a new game: scroll it into view once its board is drawn
};
window.gameproto = {state};

// -- small helpers ------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function fetchJSON(url, options = {}) {
  const response = await fetch(url, {cache: "no-store", ...options});
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    const error = new Error((body && body.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.body = body;
    throw error;
  }
  return body;
}

function playerName(number) {
  const players = (state.game && state.game.players) || (state.replay && state.replay.seats) || [];
  const name = players[number - 1];
  return name ? `P${number} ${name}` : `P${number}`;
}

/** A seat's name alone, for sentences: "bob", or "player 2" without one. */
function seatName(number) {
  const players = (state.mode === "replay" ? state.replay && state.replay.seats
    : state.game && state.game.players) || [];
  const name = players[number - 1];
  return name && name !== "(open)" ? name : `player ${number}`;
}

/** An engine's sentence, with "player N" (the engines' way of naming seats) made the seat's name. */
function namify(text) {
  return String(text).replace(/\bplayer (\d+)\b/gi, (whole, n) => {
    const number = parseInt(n, 10);
    const players = (state.mode === "replay" ? state.replay && state.replay.seats
      : state.game && state.game.players) || [];
    return number >= 1 && number <= players.length ? seatName(number) : whole;
  });
}

/** "a", "a and b", "a, b and c". */
function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function myName() {
  const name = $("#name").value.trim();
  return name || "player";
}

/** A JS RegExp for a Python pattern, or null when JS cannot read it. */
function compilePattern(pattern, whole) {
  let source = String(pattern)
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, "(?<$1>")
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, "\\k<$1>")
    .replace(/\\A/g, "^").replace(/\\Z/g, "$");
  if (whole) source = `^(?:${source})$`;
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      // try again without the unicode flag, then give up
    }
  }
  return null;
}

// -- seat tokens ------------------------------------------------------------------
//
// "seated" gives each seat's token: kept in localStorage (per game and seat),
// it takes the seat back after a reload or a dropped connection ("join" with
// it).  The seat this tab holds is kept in sessionStorage (per tab), so that a
// reload rejoins it and another tab does not.

const TOKEN_PREFIX = "gameproto.token.";
const CURRENT_SEAT = "gameproto.seat";

function tokenKey(game, player) {
  return `${TOKEN_PREFIX}${game}.${player}`;
}

function savedToken(game, player) {
  try {
    return localStorage.getItem(tokenKey(game, player));
  } catch (e) {
    return null;
  }
}

function saveSeat(game, player, token, name) {
  try {
    if (token) localStorage.setItem(tokenKey(game, player), token);
    sessionStorage.setItem(CURRENT_SEAT, JSON.stringify({game, player, name}));
  } catch (e) {
    // private browsing: the seat is not kept over a reload
  }
}

function currentSeat() {
  try {
    const seat = JSON.parse(sessionStorage.getItem(CURRENT_SEAT) || "null");
    return seat && Number.isInteger(seat.game) && Number.isInteger(seat.player) ? seat : null;
  } catch (e) {
    return null;
  }
}

function forgetCurrentSeat() {
  try {
    sessionStorage.removeItem(CURRENT_SEAT);
  } catch (e) {
    // nothing kept
  }
}

function forgetGame(game) {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith(`${TOKEN_PREFIX}${game}.`)) localStorage.removeItem(key);
    }
  } catch (e) {
    // nothing kept
  }
  const seat = currentSeat();
  if (seat && seat.game === game) forgetCurrentSeat();
}

/** Once connected: take back the seat this tab held (a reload, a dropped connection). */
function rejoin() {
  const seat = state.rejoin || (state.mode === "lobby" && !state.pending ? currentSeat() : null);
  state.rejoin = null;
  if (!seat) return;
  const token = savedToken(seat.game, seat.player);
  if (!token) {
    forgetCurrentSeat();
    return;
  }
  state.pending = {kind: "join", rejoin: seat};
  state.mode = "lobby";
  setStatus("waiting", `Taking your seat back in game ${seat.game}…`);
  const name = typeof seat.name === "string" && seat.name ? seat.name : myName();
  send({type: "join", game: seat.game, player: seat.player, token, name});
}

// -- the connection -------------------------------------------------------------

function setConnection(what, text) {
  const node = $("#connection");
  node.dataset.state = what;
  node.textContent = text;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/engine`);
  } catch (e) {
    setConnection("closed", "cannot connect");
    return;
  }
  state.ws = ws;
  setConnection("connecting", "connecting…");
  ws.addEventListener("open", () => {
    state.connected = true;
    state.retry = 1000;
    setConnection("open", "connected");
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      showError({text: "The server sent something that is not JSON.", source: "page"});
      return;
    }
    handle(message);
  });
  ws.addEventListener("close", () => {
    if (state.ws !== ws) return;
    state.connected = false;
    state.ws = null;
    state.pending = null;
    state.afterLeft = null;
    if (state.mode === "seated" && !state.ended && state.game) {
      // The seat stays ours: its token takes it back once connected again.
      state.rejoin = {game: state.game.id, player: state.game.player,
                  name: (state.game.players || [])[state.game.player - 1]};
      showError({text: "The connection to the server was lost: your seat will be taken back.",
                 source: "page"});
      state.mode = "ended";
      state.requested = [];
      setStatus("aborted", "Disconnected from the server: reconnecting…");
      showGameButtons();
      renderActions();
    } else if (["seated", "queued", "watching"].includes(state.mode)) {
      showError({text: "The connection to the server was lost: you are out of the game.",
                 source: "page"});
      state.mode = "ended";
      state.requested = [];
      setStatus("aborted", "Disconnected from the server.");
      showGameButtons();
      renderActions();
    }
    renderQueueButtons();
    setConnection("closed", `disconnected, retrying in ${Math.round(state.retry / 1000)} s`);
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 15000);
  });
}

function send(message) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    showError({text: "Not connected to the server yet: try again in a moment.", source: "page"});
    return false;
  }
  state.ws.send(JSON.stringify(message));
  return true;
}

// -- messages from the server -----------------------------------------------------

function handle(message) {
  switch (message.type) {
    case "hello":
      rejoin();
      break;
    case "created":
      note(`Game ${message.game} (${message.engine}) created.`);
      if (state.pending && state.pending.kind === "create" && !state.pending.join) {
        state.pending = null;
      }
      loadGames();
      break;
    case "seated":
      {
        // What "play again" repeats: the create or the queue that led here.
        const origin = state.pending && state.pending.origin ? state.pending.origin
          : state.mode === "queued" ? state.origin : null;
        if (origin) state.origin = {...origin, game: message.game};
        else if (!state.pending || !state.pending.rejoin) state.origin = null;
      }
      state.pending = null;
      saveSeat(message.game, message.player, message.token,
               (message.players || [])[message.player - 1]);
      startGame({id: message.game, engine: message.engine, player: message.player,
                 players: message.players || []}, "seated");
      loadGames();
      break;
    case "queued":
      if (state.pending && state.pending.origin) state.origin = {...state.pending.origin};
      state.pending = null;
      state.mode = "queued";
      state.queuedAt = message.engine;
      showGameView();
      clearBoard();
      $("#game-title").textContent = `Play against anyone: ${message.engine}`;
      setStatus("queued", `Waiting for an opponent (${state.matchmaking.get(message.engine) || message.engine} players)…`);
      showGameButtons();
      break;
    case "watching":
      state.pending = null;
      startGame({id: message.game, engine: message.engine, player: null,
                 players: message.players || []}, "watching");
      break;
    case "instructions":
      instructions(message);
      break;
    case "errors":
      serverErrors(message);
      break;
    case "problem":
      problem(message.message || "the server refused");
      break;
    case "ended":
      ended(message);
      break;
    case "left":
      left();
      break;
    default:
      break;
  }
  renderQueueButtons();
}

function startGame(game, mode) {
  $("#lobby-problem").textContent = "";
  state.mode = mode;
  state.game = game;
  state.replay = null;
  state.requested = [];
  state.awaiting = false;
  state.ended = false;
  state.gameState = null;
  state.display = null;
  state.waitingFor = [];
  state.clocks = new Map();
  state.colours = null;
  state.pick = null;
  resetView();
  cancelConfirm();
  clearErrors();
  showGameView();
  clearBoard();
  setLastMove("");
  const who = game.player === null ? "watching" : `you are ${playerName(game.player)}`;
  $("#game-title").textContent = `Game ${game.id} · ${game.engine} · ${who}`;
  $("#board").dataset.game = game.id;
  setStatus(mode === "watching" ? "watching" : "waiting",
            mode === "watching" ? `Watching game ${game.id}.` : "Seated: the game starts…");
  renderScores(null);
  showGameButtons();
  renderActions();
  setHash(mode === "watching" ? `watch=${game.id}` : "");
}

function instructions(message) {
  if (!state.game || (message.game !== undefined && message.game !== state.game.id)) {
    // instructions before "seated": should not happen, but show them anyway
    state.game = {id: message.game, engine: "", player: message.player,
                  players: state.game ? state.game.players : []};
  }
  const display = (message.displays || [])[0];
  if (display) {
    state.display = display;
    renderBoard(display, state.game.engine);
  }
  // A seat changed hands (a player came, a bot took a leaver's): the names now.
  if (Array.isArray(message.players) && message.players.every((n) => typeof n === "string")) {
    updatePlayers(message.players);
  }
  // A new turn: the page's own notes ("not your turn", "on its way") are stale.
  if (message.turn !== state.noteTurn) {
    state.noteTurn = message.turn;
    for (const item of document.querySelectorAll("#errors li.note")) item.remove();
  }
  state.requested = (message.requested_actions || []).filter(
    (r) => state.game.player !== null && (r.player === undefined || r.player === state.game.player));
  state.gameState = message.game_state || null;
  state.waitingFor = Array.isArray(message.waiting_for)
    ? message.waiting_for.filter((n) => Number.isInteger(n)) : [];
  // Each timed seat's clock: its seconds left, counted from now.
  state.clocks = new Map();
  const now = Date.now();
  for (const clock of Array.isArray(message.clocks) ? message.clocks : []) {
    if (clock && Number.isInteger(clock.player) && Number.isFinite(clock.seconds)) {
      state.clocks.set(clock.player, now + Math.max(0, clock.seconds) * 1000);
    }
  }
  if (Array.isArray(message.colours)) state.colours = message.colours;
  // An action on its way stays so until the instructions that follow it
  // ("by" is our player number) or errors: another seat may move meanwhile.
  const ours = message.by === undefined || message.by === state.game.player;
  const over = Boolean(state.gameState && state.gameState.gameover);
  // Our action was accepted: the errors about the last ones are stale.
  if (state.game.player !== null && message.by === state.game.player) clearErrors(true);
  if (ours || over) state.awaiting = false;
  cancelConfirm();
  resetPick();
  renderScores(state.gameState);
  const said = state.gameState && typeof state.gameState.text === "string" ? state.gameState.text : "";
  setLastMove(over || !said ? "" : capitalised(namify(said)) + ".");
  if (over) {
    gameOver(state.gameState.scores, null, said);
  } else {
    renderTurn();
  }
  renderActions();
  refreshPlayers();
}

/** "12 s left" for a seat whose clock runs, else "". */
function clockText(player) {
  const deadline = state.clocks.get(player);
  if (deadline === undefined) return "";
  const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return seconds >= 120 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s left` : `${seconds} s left`;
}

/** The status line while a game goes on: whose turn, in words and names, with the time left. */
function renderTurn() {
  if (!state.game || state.ended || state.mode === "replay" || state.mode === "ended") return;
  if (!["seated", "watching"].includes(state.mode)) return;
  const me = state.game.player;
  if (me !== null && state.awaiting) {
    setStatus("sent", "Sent: waiting for the server…");
  } else if (me !== null && state.requested.length) {
    const left = clockText(me);
    setStatus("your-turn", `Your turn${left ? ` — ${left}` : ""}: ${describeRequests(state.requested)}.`);
  } else {
    const others = state.waitingFor.filter((n) => n !== me);
    const who = others.map((n) => seatName(n));
    let text;
    if (!others.length) {
      text = me === null ? `Watching game ${state.game.id}.` : "Waiting for the other players…";
    } else if (others.length === 1) {
      const left = clockText(others[0]);
      text = (me === null ? `${capitalised(who[0])} to play` : `Waiting for ${who[0]}`) +
        (left ? ` — ${left}` : "") + ".";
    } else {
      const timed = others.map((n, i) => (clockText(n) ? `${who[i]} (${clockText(n)})` : who[i]));
      text = me === null ? `${capitalised(listWords(timed))} to play.` : `Waiting for ${listWords(timed)}.`;
    }
    setStatus(me === null ? "watching" : "waiting", text);
  }
  renderClocks();
}

/** Each score chip's countdown and turn mark. */
function renderClocks() {
  for (const item of document.querySelectorAll("#scores li[data-player]")) {
    const player = parseInt(item.dataset.player, 10);
    const turn = !state.ended && state.mode !== "replay" && state.waitingFor.includes(player);
    item.classList.toggle("turn", turn);
    const clock = item.querySelector(".clock");
    const text = turn ? clockText(player) : "";
    if (clock) {
      clock.textContent = text;
      clock.hidden = !text;
      const deadline = state.clocks.get(player);
      clock.dataset.seconds = text && deadline !== undefined
        ? String(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))) : "";
    }
  }
}

/** The seats' names now: a seat that changed hands is said in words, once. */
function updatePlayers(names) {
  const game = state.game;
  const before = game.players || [];
  game.players = names;
  names.forEach((name, i) => {
    const text = i + 1 === game.player ? null : seatChange(before[i], name);
    if (text) seatNote(capitalised(text));
  });
}

/** A seat's change of hands in words, or null. */
function seatChange(before, now) {
  const isOpen = (name) => name === "(open)";
  const isBot = (name) => / \(bot\)$/.test(name) || /^bot\d+$/.test(name);
  const isPerson = (name) => typeof name === "string" && name !== "" && !isOpen(name) && !isBot(name);
  if (before === now || typeof before !== "string") return null;
  if (isPerson(before) && isBot(now)) return `${before} left: a bot plays their seat now.`;
  if (isPerson(before) && isOpen(now)) return `${before} left: their seat is open now.`;
  if (isPerson(now) && before === `${now} (bot)`) return `${now} is back in their seat.`;
  if (isPerson(now) && !isPerson(before)) return `${now} joined the game.`;
  return null;
}

function setLastMove(text) {
  $("#last-move").textContent = text;
}

/** Names change when open seats are taken: ask the API (at most every 2 s while any is open). */
async function refreshPlayers(force = false) {
  const game = state.game;
  if (!game || state.mode === "replay") return;
  const open = (game.players || []).some((name) => name === "(open)");
  const now = Date.now();
  if (!force && (!open || now - (game.namesAt || 0) < 2000)) return;
  game.namesAt = now;
  let answer;
  try {
    answer = await fetchJSON(`/api/games/${game.id}`);
  } catch (e) {
    return;
  }
  if (state.game !== game || !Array.isArray(answer.seats)) return;
  if (JSON.stringify(answer.seats) === JSON.stringify(game.players)) return;
  updatePlayers(answer.seats);
  renderScores(state.gameState);
  if (state.ended) gameOver(state.gameState ? state.gameState.scores : null, game.error || null);
  else renderTurn();
}

function describeRequests(requests) {
  const parts = [];
  for (const r of requests) {
    if (typeof r.prompt === "string" && r.prompt) {
      parts.push(r.prompt);
    } else if (r.type === "TEXT" && r.pick) {
      parts.push(`pick ${r.pick.count} of the outlined places, then confirm`);
    } else if (r.type === "CLICK") {
      const buttons = (r.buttons || ["LEFT"]).map((b) => b.toLowerCase()).join(" or ");
      parts.push(r.zones ? `${buttons} click in an outlined zone` : `${buttons} click on the board`);
    } else if (r.type === "KEY") {
      parts.push(r.keys ? `press one of ${[...new Set(r.keys.toUpperCase())].join(" ")}` : "press a key");
    } else if (r.type === "TEXT") {
      parts.push("type your answer below");
    }
  }
  return parts.join(", or ") || "act";
}

function gameOver(scores, error, reason, elsewhere = false) {
  state.ended = true;
  state.requested = [];
  state.waitingFor = [];
  state.clocks = new Map();
  if (reason) state.game.reason = reason;
  clearErrors(true);  // the game is over: its refusals are stale
  if (elsewhere) {
    setStatus("elsewhere", "You play this seat in another tab or device now: the game goes on there.");
  } else if (error) {
    setStatus("aborted", sentence(`Game aborted: ${namify(error)}`));
  } else {
    const why = state.game && state.game.reason ? ` — ${namify(state.game.reason)}` : "";
    setStatus("gameover", `Game over: ${describeResult(scores)}${why}.`);
  }
  $("#scores").dataset.final = "true";
  renderClocks();
  renderActions();
  showGameButtons();
}

function describeResult(scores) {
  if (!Array.isArray(scores) || !scores.length) return "no scores";
  const best = Math.max(...scores);
  const winners = scores.map((s, i) => (s === best ? i + 1 : 0)).filter(Boolean);
  if (winners.length === scores.length) return "a draw";
  const names = winners.map((n) => playerName(n));
  const mine = state.game && state.game.player;
  if (mine && winners.length === 1) return winners[0] === mine ? "you win" : `${names[0]} wins`;
  return `${names.join(", ")} ${winners.length === 1 ? "wins" : "win"}`;
}

function ended(message) {
  state.pending = null;
  if (state.mode === "replay") return;
  if (!state.game || (message.game !== undefined && message.game !== state.game.id)) return;
  const elsewhere = state.mode === "seated" &&
    /taken back with its token/.test(message.error || "");
  if (elsewhere) {
    forgetCurrentSeat();  // another tab or device holds the seat now
  } else if (state.mode === "seated") {
    forgetGame(state.game.id);  // over: its tokens open nothing any more
  } else if (state.mode === "watching") {
    setHash("");  // #watch= is for live games
  }
  state.mode = "ended";
  if (Array.isArray(message.scores)) {
    state.gameState = {scores: message.scores, gameover: true};
    renderScores(state.gameState);
  }
  const scores = Array.isArray(message.scores) ? message.scores
    : state.gameState ? state.gameState.scores : null;
  state.game.error = message.error || null;
  gameOver(scores, message.error || null,
           typeof message.reason === "string" && !message.error ? message.reason : null,
           elsewhere);
  refreshPlayers(true);
  loadGames();
}

function left() {
  const next = state.afterLeft;
  state.afterLeft = null;
  forgetCurrentSeat();  // left on purpose: no rejoining by itself (the token stays)
  if (state.mode !== "replay") {
    state.mode = "lobby";
    state.game = null;
    state.requested = [];
    hideGameView();
  }
  if (next) next();
}

function serverErrors(message) {
  const errors = Array.isArray(message.errors) ? message.errors : [];
  const pending = state.pending;
  state.pending = null;
  if (pending && pending.kind === "create" && pending.form) {
    const box = pending.form.querySelector(".form-error");
    box.textContent = errors.map(describeError).join(" ") || "the game could not be created";
  }
  state.awaiting = false;
  for (const error of errors.length ? errors : [{type: "BAD_FORMAT"}]) {
    showError({text: describeError(error), type: error.type, subtype: error.subtype,
               source: "server"});
  }
  if (state.mode === "seated" && !state.ended) renderTurn();
  renderActions();
}

function problem(message) {
  const pending = state.pending;
  state.pending = null;
  const text = problemSentence(message);
  if (pending && pending.rejoin) {
    // The seat cannot be taken back (the game is over, the token refused).
    forgetGame(pending.rejoin.game);
    setStatus("aborted", `Your seat in game ${pending.rejoin.game} cannot be taken back.`);
  }
  if (pending && pending.form) {
    pending.form.querySelector(".form-error").textContent = text;
  }
  if (pending && state.mode === "lobby") {
    hideGameView();
    // Asked from the list (join, watch): said above it, where the person looks.
    if (!pending.form) $("#lobby-problem").textContent = text;
  }
  state.awaiting = false;
  showError({text, type: "problem", source: "server"});
  renderActions();
}

/**
 * The server's words as a sentence; its "player N" named when it speaks of
 * the game shown here (a problem may be about another game).
 */
function problemSentence(message) {
  const text = String(message);
  const game = state.game;
  const about = /\bgame (\d+)/.exec(text);
  const ours = game && state.mode !== "lobby" && (!about || Number(about[1]) === game.id);
  return sentence(ours ? namify(text) : text);
}

function describeError(error) {
  // The engine's own words first: they come from the rules.
  if (error && typeof error.text === "string" && error.text) return sentence(namify(error.text));
  const quoted = (v) => (typeof v === "string" ? `“${v}”` : typeof v === "number" ? String(v) : "this value");
  switch (error && error.type) {
    case "BAD_FORMAT":
      return "The server could not read what was sent.";
    case "MISSING_ARGUMENT":
      return `The parameter “${error.arg}” is missing.`;
    case "INCORRECT_VALUE":
      return `${capitalised(quoted(error.value))} is not allowed for “${error.arg}”.`;
    case "UNEXPECTED_ARGUMENT":
      return `This game has no parameter “${error.argname}”.`;
    case "UNEXPECTED_ACTION":
      return state.game && error.player !== undefined && error.player !== state.game.player
        ? `It is not ${seatName(error.player)}'s turn.`
        : "It is not your turn, or that is not what is asked now.";
    case "MISSING_ACTION":
      return error.player === undefined
        ? "An action was not made in time."
        : `${capitalised(seatName(error.player))} did not act in time.`;
    case "WRONG_ACTION": {
      const request = error.requested_action && typeof error.requested_action === "object"
        ? error.requested_action : null;
      const asked = request && typeof request.prompt === "string" && request.prompt
        ? `: ${request.prompt}` : "";
      return {
        OUT_OF_ZONE: `That move is not allowed here${asked || ": choose one of the outlined places"}.`,
        WRONG_BUTTON: `That mouse button is not allowed here${asked}.`,
        KEY_NOT_ALLOWED: `That key is not allowed here${asked}.`,
        UNMATCHED_REGEX: `That answer does not have the expected form${asked}.`,
        TEXT_EMPTY: "The answer is empty.",
        TEXT_TOO_LONG: "The answer is too long.",
      }[error.subtype] || "That move is not allowed.";
    }
    default:
      return `The engine refused the action${error && error.type ? ` (${String(error.type).toLowerCase().replace(/_/g, " ")})` : ""}.`;
  }
}

/** A sentence: a capital first, a full stop last. */
function sentence(text) {
  const trimmed = String(text).trim();
  return capitalised(/[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`);
}

/** An action in words, for the confirmation bar. */
function describeAction(action) {
  if (!action || typeof action !== "object") return "this action";
  if (action.type === "CLICK") return `this ${action.button && action.button !== "LEFT" ? `${action.button.toLowerCase()} ` : ""}click`;
  if (action.type === "KEY") return `the key “${action.key}”`;
  if (action.type === "TEXT") return `“${action.text}”`;
  return "this action";
}

// -- notes and errors ------------------------------------------------------------

function showError({text, type = "", subtype = "", source = "page"}) {
  const list = $("#errors");
  const item = element("li", {"class": `error ${source}`, "data-source": source,
                              "data-type": type || null, "data-subtype": subtype || null,
                              text});
  list.prepend(item);
  while (list.children.length > 5) list.lastElementChild.remove();
}

function note(text) {
  const list = $("#errors");
  list.prepend(element("li", {"class": "note", "data-source": "note", text}));
  while (list.children.length > 5) list.lastElementChild.remove();
}

/** A seat changed hands: kept over the turns (a new game clears it). */
function seatNote(text) {
  const list = $("#errors");
  list.prepend(element("li", {"class": "seat-change", "data-source": "seat", text}));
  while (list.children.length > 5) list.lastElementChild.remove();
}

/** Clear the messages: every one, or (``errorsOnly``) the errors, which are stale. */
function clearErrors(errorsOnly = false) {
  if (errorsOnly) {
    // (the page's own notes of a refusal are as stale as the server's errors)
    for (const item of document.querySelectorAll("#errors li.error, #errors li.note")) {
      item.remove();
    }
  } else {
    $("#errors").replaceChildren();
  }
}

// -- the game view ---------------------------------------------------------------

function showGameView() {
  const game = $("#game");
  const wasHidden = game.hidden;
  state.scrollOnDraw = true;
  game.hidden = false;
  document.body.classList.add("playing");
  const box = game.getBoundingClientRect();
  if (wasHidden || box.top < 0 || box.top > window.innerHeight) {
    game.scrollIntoView({block: "start"});
  }
}

function hideGameView() {
  $("#game").hidden = true;
  document.body.classList.remove("playing");
  setHash("");
}

/** Back to the lobby from a game over or a replay. */
function closeGame() {
  state.mode = "lobby";
  state.replay = null;
  state.game = null;
  hideGameView();
}

function showGameButtons() {
  const live = ["seated", "queued", "watching"].includes(state.mode);
  const leave = $("#leave");
  leave.hidden = !live;
  leave.textContent = state.mode === "queued" ? "Leave the queue"
    : state.mode === "watching" ? "Stop watching" : "Leave the game";
  $("#close-game").hidden = live;
  $("#replay-controls").hidden = state.mode !== "replay";
  $("#again").hidden = !(state.mode === "ended" && state.origin && state.game &&
                         state.origin.game === state.game.id);
  const replayThis = $("#replay-this");
  if (replayThis) replayThis.remove();
  if (state.mode === "ended" && state.game) {
    const id = state.game.id;
    $("#close-game").before(element("button", {type: "button", id: "replay-this",
                                               onclick: () => openReplay(id)}, "Replay this game"));
  }
}

function setStatus(what, text) {
  const node = $("#status");
  node.dataset.state = what;
  node.textContent = text;
}

function clearBoard() {
  $("#board").replaceChildren();
  $("#view-tools").hidden = true;
  delete $("#board").dataset.turn;
  $("#scores").replaceChildren();
}

function renderScores(gameState) {
  const list = $("#scores");
  list.replaceChildren();
  delete list.dataset.final;
  const players = (state.mode === "replay" ? state.replay && state.replay.seats
    : state.game && state.game.players) || [];
  const scores = gameState && Array.isArray(gameState.scores) ? gameState.scores : null;
  const count = Math.max(players.length, scores ? scores.length : 0);
  const best = scores && scores.length ? Math.max(...scores) : null;
  const mine = state.mode !== "replay" && state.game ? state.game.player : null;
  for (let n = 1; n <= count; n++) {
    const score = scores ? scores[n - 1] : undefined;
    const classes = [];
    if (n === mine) classes.push("me");
    if (gameState && gameState.gameover && score === best && !scores.every((s) => s === best)) {
      classes.push("winner");
    }
    const colour = state.mode !== "replay" && Array.isArray(state.colours) ? state.colours[n - 1] : null;
    const swatch = typeof colour === "string" && colour
      ? element("span", {"class": "swatch", "aria-hidden": "true", title: colourName(colour)}) : null;
    if (swatch) swatch.style.backgroundColor = colour;
    list.append(element("li", {"data-player": n, "class": classes.join(" ") || null,
                               "data-colour": colour || null},
      swatch,
      element("span", {"class": "player", text: playerName(n)}),
      n === mine ? element("span", {"class": "you", text: " (you)"}) : null,
      " ",
      element("span", {"class": "score", text: score === undefined || score === null ? "–" : String(score)}),
      element("span", {"class": "clock", hidden: true})));
  }
  if (gameState && gameState.gameover) list.dataset.final = "true";
  renderClocks();
  renderTitleColour();
}

/** A colour in words when it is a common one (the swatch's tooltip). */
function colourName(colour) {
  const known = {"#d62828": "red", "#f6c90e": "yellow"};
  return known[String(colour).toLowerCase()] || String(colour);
}

/** The game's title says which colour is yours, with a swatch. */
function renderTitleColour() {
  const title = $("#game-title");
  const old = title.querySelector(".swatch");
  if (old) old.remove();
  const mine = state.mode !== "replay" && state.game ? state.game.player : null;
  const colour = mine && Array.isArray(state.colours) ? state.colours[mine - 1] : null;
  if (typeof colour !== "string" || !colour) return;
  const swatch = element("span", {"class": "swatch", title: `your colour: ${colourName(colour)}`,
                                  "data-colour": colour});
  swatch.style.backgroundColor = colour;
  title.append(" ", swatch);
}

// -- drawing a display -------------------------------------------------------------

function spriteURL(engine, href) {
  const path = href.replace(/^(\.\/)+/, "").split(/[?#]/)[0];
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (!engine || !segments.length || segments.includes("..")) return null;
  return `/api/engines/${encodeURIComponent(engine)}/sprites/` +
    segments.map((s) => encodeURIComponent(s)).join("/");
}

function resolveHref(value, engine) {
  const href = String(value).trim();
  if (href.startsWith("#")) return `#${ID_PREFIX}${href.slice(1)}`;
  if (/^data:image\//i.test(href)) return href;
  if (href.startsWith("//")) return null;
  if (href.startsWith("/")) return href;                 // this server
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(href)) return null;  // other schemes and hosts: no
  return spriteURL(engine, href);
}

function attributeValue(name, value, engine) {
  if (value === null || value === undefined) return null;
  if (typeof value === "object") return null;
  let text = String(value);
  const lower = name.toLowerCase();
  if (lower === "href" || lower === "xlink:href") return resolveHref(text, engine);
  if (lower === "id") return ID_PREFIX + text;
  if (text.includes("url(")) {
    if (/url\(\s*['"]?\s*(?!#)/i.test(text)) return null;  // only references inside the display
    text = text.replace(/url\(\s*(['"]?)\s*#/gi, `url($1#${ID_PREFIX}`);
  }
  return text;
}

function drawTag(parent, spec, engine, budget, depth) {
  if (budget.left <= 0 || depth > MAX_DEPTH) return;
  if (typeof spec === "string" || typeof spec === "number") {
    parent.append(document.createTextNode(String(spec)));
    return;
  }
  if (!spec || typeof spec !== "object" || typeof spec.tag !== "string") return;
  const tag = spec.tag;
  const lowerTag = tag.toLowerCase();
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(tag) || BLOCKED_TAGS.has(lowerTag)) return;
  if (ANIMATIONS.has(lowerTag)) {
    const target = String(spec.attributeName || "").toLowerCase();
    if (target.includes("href") || target.startsWith("on") || !target) return;
  }
  budget.left -= 1;
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, raw] of Object.entries(spec)) {
    if (name === "tag" || name === "content") continue;
    if (!/^[A-Za-z_][A-Za-z0-9_.:-]*$/.test(name) || /^on/i.test(name) || /^xmlns/i.test(name)) continue;
    const value = attributeValue(name, raw, engine);
    if (value === null) continue;
    try {
      if (name.toLowerCase() === "xlink:href") node.setAttributeNS(XLINK_NS, "xlink:href", value);
      else node.setAttribute(name, value);
    } catch (e) {
      // an attribute name the DOM refuses: leave it out
    }
  }
  const content = spec.content;
  if (typeof content === "string" || typeof content === "number" || typeof content === "boolean") {
    node.textContent = String(content);
  } else if (Array.isArray(content)) {
    for (const child of content) drawTag(node, child, engine, budget, depth + 1);
  } else if (content && typeof content === "object") {
    drawTag(node, content, engine, budget, depth + 1);
  }
  parent.append(node);
}

function renderDisplay(display, engine) {
  const width = Number(display.width) > 0 ? Number(display.width) : 640;
  const height = Number(display.height) > 0 ? Number(display.height) : 480;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("xmlns", SVG_NS);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("class", "display");
  svg.dataset.width = width;
  svg.dataset.height = height;
  if (display.player !== null && display.player !== undefined) svg.dataset.player = display.player;
  const content = Array.isArray(display.content) ? display.content
    : display.content ? [display.content] : [];
  const budget = {left: MAX_ELEMENTS};
  for (const spec of content) drawTag(svg, spec, engine, budget, 0);
  return svg;
}

function renderBoard(display, engine) {
  const board = $("#board");
  const empty = !(Number(display.width) > 0 && Number(display.height) > 0) &&
    !(Array.isArray(display.content) && display.content.length);
  if (empty) {
    // External engines draw nothing for spectators (the document has no public display).
    board.replaceChildren(element("p", {"class": "no-display",
                                        text: "This engine shows nothing to spectators."}));
  } else {
    const svg = renderDisplay(display, engine);
    board.replaceChildren(svg);
    applyView(svg);
  }
  $("#view-tools").hidden = empty;
  state.version += 1;
  board.dataset.version = state.version;
  if (state.scrollOnDraw) {
    // A new game's first board: keep the game in view as it grows.
    state.scrollOnDraw = false;
    const top = $("#game").getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) $("#game").scrollIntoView({block: "start"});
  }
}

// -- pan and zoom -----------------------------------------------------------------
// The view is the svg's viewBox: a part of the display, of its aspect ratio, so the
// svg's own transform (getScreenCTM) still maps a pointer to display units.

function resetView() {
  state.view = {zoom: 1, cx: null, cy: null};
}

function applyView(svg) {
  const width = Number(svg.dataset.width);
  const height = Number(svg.dataset.height);
  const view = state.view;
  view.zoom = Math.min(ZOOM_MAX, Math.max(1, Number(view.zoom) || 1));
  const w = width / view.zoom;
  const h = height / view.zoom;
  const cx = view.cx === null ? width / 2 : view.cx;
  const cy = view.cy === null ? height / 2 : view.cy;
  view.cx = Math.min(width - w / 2, Math.max(w / 2, cx));
  view.cy = Math.min(height - h / 2, Math.max(h / 2, cy));
  svg.setAttribute("viewBox", `${view.cx - w / 2} ${view.cy - h / 2} ${w} ${h}`);
  svg.classList.toggle("zoomed", view.zoom > 1);
  const board = $("#board");
  board.dataset.zoom = view.zoom.toFixed(2);
  $("#zoom-in").disabled = view.zoom >= ZOOM_MAX;
  $("#zoom-out").disabled = $("#zoom-fit").disabled = view.zoom <= 1;
}

// Zoom by ``factor`` about a point of the screen (the board's centre without one).
function zoomBy(factor, clientX, clientY) {
  const svg = $("#board svg");
  if (!svg) return;
  const box = svg.getBoundingClientRect();
  if (!box.width || !box.height) return;
  const fx = clientX === undefined ? 0.5 : Math.min(1, Math.max(0, (clientX - box.left) / box.width));
  const fy = clientY === undefined ? 0.5 : Math.min(1, Math.max(0, (clientY - box.top) / box.height));
  const width = Number(svg.dataset.width);
  const height = Number(svg.dataset.height);
  const view = state.view;
  const oldW = width / view.zoom;
  const oldH = height / view.zoom;
  const px = view.cx - oldW / 2 + fx * oldW;  // the display point under the pointer stays there
  const py = view.cy - oldH / 2 + fy * oldH;
  view.zoom = Math.min(ZOOM_MAX, Math.max(1, view.zoom * factor));
  const newW = width / view.zoom;
  const newH = height / view.zoom;
  view.cx = px - fx * newW + newW / 2;
  view.cy = py - fy * newH + newH / 2;
  applyView(svg);
}

// Move the view by (dx, dy) screen pixels: the board follows the pointer.
function panBy(dx, dy) {
  const svg = $("#board svg");
  if (!svg) return;
  const box = svg.getBoundingClientRect();
  if (!box.width || !box.height) return;
  const view = state.view;
  view.cx -= dx * Number(svg.dataset.width) / view.zoom / box.width;
  view.cy -= dy * Number(svg.dataset.height) / view.zoom / box.height;
  applyView(svg);
}

function setUpPanZoom(board) {
  const pointers = new Map();  // pointerId -> {x, y}: the pointers down on the board
  let start = null;            // where the first pointer went down
  let moved = false;
  board.addEventListener("pointerdown", (event) => {
    if (!event.target.closest("svg") || (event.pointerType === "mouse" && event.button !== 0)) return;
    pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
    state.dragged = false;
    if (pointers.size === 1) {
      start = {x: event.clientX, y: event.clientY};
      moved = false;
    }
  });
  board.addEventListener("pointermove", (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = {x: event.clientX, y: event.clientY};
    if (pointers.size >= 2) {
      const [a, b] = [...pointers.entries()].slice(0, 2);
      const other = a[0] === event.pointerId ? b[1] : a[1];
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(now.x - other.x, now.y - other.y);
      if (before > 0 && after > 0) zoomBy(after / before, (now.x + other.x) / 2, (now.y + other.y) / 2);
      moved = true;
    } else {
      if (!moved && start && Math.hypot(now.x - start.x, now.y - start.y) > DRAG_PX) {
        moved = true;
        try {
          board.setPointerCapture(event.pointerId);
        } catch (e) {
          // the pointer is gone already
        }
      }
      if (moved) panBy(now.x - last.x, now.y - last.y);
    }
    pointers.set(event.pointerId, now);
    event.preventDefault();
  });
  const up = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    if (moved) state.dragged = true;
    if (!pointers.size) start = null;
  };
  board.addEventListener("pointerup", up);
  board.addEventListener("pointercancel", up);
  board.addEventListener("wheel", (event) => {
    if (!board.querySelector("svg") || !event.deltaY) return;
    const pixels = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaMode === 2 ? event.deltaY * 400 : event.deltaY;
    if (pixels > 0 && state.view.zoom <= 1) return;  // fitted already: the page scrolls
    event.preventDefault();
    zoomBy(Math.exp(-Math.max(-200, Math.min(200, pixels)) * 0.002), event.clientX, event.clientY);
  }, {passive: false});
  $("#zoom-in").addEventListener("click", () => zoomBy(ZOOM_STEP));
  $("#zoom-out").addEventListener("click", () => zoomBy(1 / ZOOM_STEP));
  $("#zoom-fit").addEventListener("click", () => {
    resetView();
    const svg = $("#board svg");
    if (svg) applyView(svg);
  });
}

// The click that ends a drag or a pinch is not sent.
function justDragged() {
  const dragged = state.dragged;
  state.dragged = false;
  return dragged;
}

// The zones of the CLICK asked, outlined over the display.
function renderZones() {
  const svg = $("#board svg");
  if (!svg) return;
  const old = svg.querySelector("g.gp-zones");
  if (old) old.remove();
  const click = playable() ? state.requested.find((r) => r.type === "CLICK") : null;
  const pick = pickRequest();
  svg.classList.toggle("clickable", Boolean(click || pick));
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "gp-zones");
  group.setAttribute("pointer-events", "none");
  if (click && Array.isArray(click.zones)) {
    click.zones.forEach((zone, index) => {
      const rect = document.createElementNS(SVG_NS, "rect");
      for (const key of ["x", "y", "width", "height"]) rect.setAttribute(key, zone[key]);
      rect.setAttribute("class", "zone");
      rect.dataset.zone = index;
      group.append(rect);
    });
  }
  if (pick && state.pick) {
    pick.pick.zones.forEach((zone, index) => {
      const rect = document.createElementNS(SVG_NS, "rect");
      for (const key of ["x", "y", "width", "height"]) rect.setAttribute(key, zone[key]);
      const picked = state.pick.chosen.has(index);
      rect.setAttribute("class", picked ? "pick picked" : "pick");
      rect.dataset.pick = index;
      rect.dataset.value = pick.pick.values[index];
      group.append(rect);
    });
  }
  if (group.childNodes.length) svg.append(group);
}

// -- actions ------------------------------------------------------------------

function playable() {
  return state.mode === "seated" && !state.ended && !state.awaiting && state.requested.length > 0;
}

function renderActions() {
  renderZones();
  const key = playable() ? state.requested.find((r) => r.type === "KEY") : null;
  const keys = $("#keys");
  keys.hidden = !key;
  const allowed = $("#keys-allowed");
  allowed.replaceChildren();
  if (key) {
    if (typeof key.keys === "string" && key.keys.length) {
      const unique = [...new Set(key.keys.toUpperCase())];
      if (unique.length <= 64) {
        for (const k of unique) {
          allowed.append(element("button", {type: "button", "class": "key", "data-key": k,
                                            onclick: () => pressKey(k)},
                                 k === " " ? "space" : k));
        }
      }
    } else {
      allowed.append("(any key)");
    }
  }
  const text = playable() ? state.requested.find((r) => r.type === "TEXT") : null;
  const form = $("#text-form");
  const wasHidden = form.hidden;
  // A TEXT that comes with a pick is made by clicking: no typing.
  const picking = Boolean(text && validPick(text.pick));
  form.hidden = !text || picking;
  if (text && !picking) {
    const input = $("#text-input");
    const limit = Number.isInteger(text.max_length) ? text.max_length : DEFAULT_MAX_LENGTH;
    input.maxLength = limit;
    $("#text-label").textContent = typeof text.prompt === "string" && text.prompt
      ? capitalised(text.prompt) : "Your answer";
    $("#text-format").textContent = `at most ${limit} characters`;
    // Typing is the only way asked: the field gets the focus.  When a click or a
    // key is asked too (Doppelkopf's reservation buttons), typing is the other
    // way: no focus, so that a phone does not open its keyboard each time.
    const alternative = state.requested.some((r) => r.type === "CLICK" || r.type === "KEY");
    if (wasHidden && !alternative) input.focus();
  }
  renderPickBar();
}

// -- picking: a TEXT made by clicking zones (a requested TEXT's "pick") -------------

function validPick(pick) {
  return Boolean(pick && Array.isArray(pick.zones) && Array.isArray(pick.values) &&
                 pick.zones.length === pick.values.length && Number.isInteger(pick.count) &&
                 pick.count >= 1 && pick.count <= pick.zones.length);
}

/** The TEXT request of this seat that has a pick, when one is asked now. */
function pickRequest() {
  const text = findRequest("TEXT");
  return text && validPick(text.pick) ? text : null;
}

/** New instructions: a new pick starts empty (the same one keeps what was picked). */
function resetPick() {
  const request = state.game && state.game.player !== null
    ? state.requested.find((r) => r.type === "TEXT" && validPick(r.pick)) : null;
  const key = request ? JSON.stringify(request.pick) : null;
  if (!key) state.pick = null;
  else if (!state.pick || state.pick.key !== key) state.pick = {key, chosen: new Set()};
}

function togglePick(index) {
  const request = pickRequest();
  if (!request || !state.pick) return;
  const chosen = state.pick.chosen;
  if (chosen.has(index)) {
    chosen.delete(index);
  } else if (chosen.size >= request.pick.count) {
    refuseLocally(`You have picked ${request.pick.count} already: click one of them to unpick it, or Clear.`,
                  "PICK_FULL");
    return;
  } else {
    chosen.add(index);
  }
  renderZones();
  renderPickBar();
}

function renderPickBar() {
  const request = pickRequest();
  const bar = $("#pick");
  bar.hidden = !request || !state.pick;
  if (bar.hidden) return;
  const {count} = request.pick;
  const picked = state.pick.chosen.size;
  bar.dataset.picked = picked;
  $("#pick-text").textContent = `Picked ${picked} of ${count}` +
    (picked < count ? `: click ${count - picked} more of the outlined places.` : ": confirm, or click one to unpick it.");
  $("#pick-send").disabled = picked !== count;
  $("#pick-clear").disabled = picked === 0;
}

function sendPick() {
  const request = pickRequest();
  if (!request || !state.pick) return;
  const {values, count} = request.pick;
  const separator = typeof request.pick.separator === "string" ? request.pick.separator : " ";
  if (state.pick.chosen.size !== count) {
    refuseLocally(`Pick ${count} first (${state.pick.chosen.size} picked).`, "PICK_COUNT");
    return;
  }
  const text = [...state.pick.chosen].sort((a, b) => a - b).map((i) => values[i]).join(separator);
  sendText(text, true);
}

function findRequest(type) {
  return playable() ? state.requested.find((r) => r.type === type) : null;
}

function refuseLocally(text, subtype) {
  showError({text, type: "page", subtype, source: "page"});
}

function notPlayableReason() {
  if (playable()) return null;
  if (state.mode === "watching") return "You are watching this game: spectators do not play.";
  if (state.mode === "replay") return null;
  if (state.ended) return "The game is over.";
  if (state.awaiting) return "Your last action is on its way: wait for the server's answer.";
  if (state.mode === "seated") return "It is not your turn.";
  return null;
}

function displayPoint(svg, event) {
  const width = Number(svg.dataset.width);
  const height = Number(svg.dataset.height);
  let x;
  let y;
  const ctm = svg.getScreenCTM();
  if (ctm) {
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    x = point.x;
    y = point.y;
  } else {
    const box = svg.getBoundingClientRect();
    x = (event.clientX - box.left) * width / box.width;
    y = (event.clientY - box.top) * height / box.height;
  }
  x = Math.floor(x);
  y = Math.floor(y);
  return {x, y, inside: x >= 0 && y >= 0 && x < width && y < height};
}

function inZone(zone, x, y) {
  return zone.x <= x && x < zone.x + zone.width && zone.y <= y && y < zone.y + zone.height;
}

// A finger's tap this near a zone (CSS pixels) counts as in it: half of the
// 44 px a touch target needs, so that a small zone drawn by a game (a
// button of the display) is still easy to hit on a phone.
const TAP_REACH_PX = 22;

// Where a click at display point (x, y) lands: inside a zone as it is; a
// tap (touch or pen) outside every zone moves to the nearest point of the
// nearest zone within TAP_REACH_PX on the screen; else it stays (and is
// outside every zone).
function reachZone(svg, event, zones, x, y) {
  if (!Array.isArray(zones) || zones.some((zone) => inZone(zone, x, y)) ||
      !["touch", "pen"].includes(event.pointerType)) return {x, y};
  const ctm = svg.getScreenCTM();
  const box = svg.getBoundingClientRect();
  const perPixel = ctm && ctm.a ? 1 / Math.abs(ctm.a) : Number(svg.dataset.width) / box.width;
  let best = null;
  let bestDistance = TAP_REACH_PX * perPixel;
  for (const zone of zones) {
    // The zone's nearest point with whole coordinates (what a click sends).
    const nx = Math.min(Math.max(x, Math.ceil(zone.x)), Math.ceil(zone.x + zone.width) - 1);
    const ny = Math.min(Math.max(y, Math.ceil(zone.y)), Math.ceil(zone.y + zone.height) - 1);
    const distance = Math.hypot(nx - x, ny - y);
    if (inZone(zone, nx, ny) && distance <= bestDistance && (best === null || distance < bestDistance)) {
      best = {x: nx, y: ny};
      bestDistance = distance;
    }
  }
  return best || {x, y};
}

function boardClick(button, event) {
  const svg = $("#board svg");
  if (!svg || state.mode === "replay") return;
  const click = findRequest("CLICK");
  const pick = pickRequest();
  if (pick && button === "LEFT") {
    const point = displayPoint(svg, event);
    const {x, y} = reachZone(svg, event, pick.pick.zones, point.x, point.y);
    const index = pick.pick.zones.findIndex((zone) => inZone(zone, x, y));
    if (index >= 0) {
      togglePick(index);
      return;
    }
    if (!click || (Array.isArray(click.zones) && !click.zones.some((zone) => inZone(zone, x, y)))) {
      refuseLocally(`That is not one of the places to pick: ${describeRequests(state.requested)}.`,
                    "OUT_OF_ZONE");
      return;
    }
  }
  if (!click) {
    const reason = notPlayableReason();
    if (reason) note(reason);
    else if (playable()) note(`No click is asked now: ${describeRequests(state.requested)}.`);
    return;
  }
  const buttons = Array.isArray(click.buttons) && click.buttons.length ? click.buttons : ["LEFT"];
  if (!buttons.includes(button)) {
    refuseLocally(`The ${button.toLowerCase()} click is not used here: use a ` +
                  `${buttons.map((b) => b.toLowerCase()).join(" or ")} click.`, "WRONG_BUTTON");
    return;
  }
  const point = displayPoint(svg, event);
  const {x, y} = reachZone(svg, event, click.zones, point.x, point.y);
  const inside = x >= 0 && y >= 0 && x < Number(svg.dataset.width) && y < Number(svg.dataset.height);
  if (!inside) {
    note("Click on the board itself.");
    return;
  }
  if (Array.isArray(click.zones) && !click.zones.some((zone) => inZone(zone, x, y))) {
    refuseLocally(`That is not one of the places you can click: ${describeRequests([click])}.`,
                  "OUT_OF_ZONE");
    return;
  }
  submit({type: "CLICK", x, y, button}, click, describeAction({type: "CLICK", button}));
}

function pressKey(key) {
  const request = findRequest("KEY");
  if (!request) {
    if (state.mode === "seated") {
      note(notPlayableReason() || `No key is asked now: ${describeRequests(state.requested)}.`);
    }
    return false;
  }
  if (typeof request.keys === "string" && request.keys.length &&
      !request.keys.toLowerCase().includes(key.toLowerCase())) {
    refuseLocally(`The key “${key}” is not allowed: press one of ` +
                  `${[...new Set(request.keys.toUpperCase())].join(" ")}.`, "KEY_NOT_ALLOWED");
    return true;
  }
  submit({type: "KEY", key}, request, `the key “${key}”`);
  return true;
}

function sendText(text, picked = false) {
  const request = findRequest("TEXT");
  if (!request) {
    note(notPlayableReason() || "No text is asked now.");
    return;
  }
  const limit = Number.isInteger(request.max_length) ? request.max_length : DEFAULT_MAX_LENGTH;
  let why = null;
  let subtype = null;
  if (!text.length) {
    why = "Type something first.";
    subtype = "TEXT_EMPTY";
  } else if (text.length > limit) {
    why = `The text is too long: at most ${limit} characters (${text.length} typed).`;
    subtype = "TEXT_TOO_LONG";
  } else if (typeof request.regex === "string") {
    const pattern = compilePattern(request.regex, false);
    if (pattern && !pattern.test(text)) {
      why = typeof request.prompt === "string" && request.prompt
        ? `That answer does not have the expected form: ${request.prompt}.`
        : "That answer does not have the expected form.";
      subtype = "UNMATCHED_REGEX";
    }
  }
  if (why) {
    refuseLocally(why, subtype);
    if (!picked) {
      $("#text-input").setCustomValidity(why);
      $("#text-input").reportValidity();
    }
    return;
  }
  $("#text-input").setCustomValidity("");
  submit({type: "TEXT", text}, request, picked ? "your pick" : `“${text}”`);
}

function submit(action, request, text) {
  if (request.confirm) {
    state.confirmAction = {action, text};
    $("#confirm-text").textContent = `Send ${text}?`;
    $("#confirm").hidden = false;
    $("#confirm-yes").focus();
    return;
  }
  sendAction(action);
}

function sendAction(action) {
  cancelConfirm();
  if (send({type: "action", action})) {
    state.awaiting = true;
    setStatus("sent", "Sent: waiting for the server…");
    if (action.type === "TEXT") $("#text-input").value = "";
    renderActions();
  }
}

function cancelConfirm() {
  state.confirmAction = null;
  $("#confirm").hidden = true;
}

// -- lobby: engines ---------------------------------------------------------------

function parameterInput(engine, name, described) {
  const id = `param-${engine.name}-${name}`;
  const attributes = {id, name, "data-param": name, "data-type": described.type};
  const range = Array.isArray(described.range) ? described.range : [null, null];
  const hints = [];
  if (described.type === "int" || described.type === "float") {
    Object.assign(attributes, {type: "number", step: described.type === "int" ? "1" : "any",
                               inputmode: described.type === "int" ? "numeric" : "decimal"});
    if (range[0] !== null && range[0] !== undefined) attributes.min = range[0];
    if (range[1] !== null && range[1] !== undefined) attributes.max = range[1];
    if (range[0] !== null && range[1] !== null && range[0] !== undefined && range[1] !== undefined) {
      hints.push(range[0] === range[1] ? `${range[0]}` : `${range[0]} to ${range[1]}`);
    } else if (attributes.min !== undefined) {
      hints.push(`at least ${attributes.min}`);
    } else if (attributes.max !== undefined) {
      hints.push(`at most ${attributes.max}`);
    }
  } else {
    attributes.type = "text";
    attributes.spellcheck = "false";
    if (described.format) hints.push(`format ${described.format}`);
  }
  if (described.default !== undefined && described.default !== null) {
    attributes.value = described.default;
  } else {
    attributes.required = true;
    hints.push("required");
    if (name === "players" && range[0] !== null && range[0] !== undefined) attributes.value = range[0];
  }
  if (described.type === "int" && range[0] !== null && range[0] === range[1] && range[0] !== undefined) {
    attributes.readonly = true;
  }
  return element("div", {"class": "param"},
    element("label", {"for": id}, element("span", {"class": "param-name", text: name}),
            " ", element("span", {"class": "hint", text: hints.length ? `(${hints.join(", ")})` : ""})),
    element("input", attributes),
    element("small", {"class": "description", text: described.description || ""}));
}

function renderEngines() {
  const box = $("#engines");
  box.replaceChildren();
  if (!state.engines.length) {
    box.append(element("p", {"class": "empty", text: "No engine on this server."}));
    return;
  }
  for (const engine of state.engines) {
    const form = element("form", {"class": "engine", "data-engine": engine.name, novalidate: true});
    const fieldset = element("fieldset", {},
      element("legend", {}, engine.name,
              engine.external ? element("span", {"class": "badge", text: "external"}) : null));
    const params = element("div", {"class": "params"});
    for (const [name, described] of Object.entries(engine.parameters || {})) {
      params.append(parameterInput(engine, name, described));
    }
    fieldset.append(params);
    const seats = element("div", {"class": "seats"});
    fieldset.append(seats);
    const buttons = element("div", {"class": "buttons"},
      element("button", {type: "submit", "class": "create", text: "Create the game"}));
    const matchmaking = state.matchmaking.get(engine.name);
    if (matchmaking) {
      buttons.append(element("button", {type: "button", "class": "queue",
                                        title: `Wait for ${matchmaking} players (the server's own settings)`,
                                        onclick: () => queue(engine, form),
                                        text: "Play against anyone"}),
                     element("small", {"class": "queue-waiting", "data-engine": engine.name}));
    }
    fieldset.append(buttons, element("p", {"class": "form-error", role: "alert"}));
    form.append(fieldset);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      create(engine, form);
    });
    const players = form.querySelector('input[data-param="players"]');
    if (players) players.addEventListener("input", () => renderSeats(engine, form));
    renderSeats(engine, form);
    box.append(form);
  }
}

function seatCount(form) {
  const players = form.querySelector('input[data-param="players"]');
  const count = players ? parseInt(players.value, 10) : 2;
  return Number.isInteger(count) && count > 0 ? Math.min(count, 16) : 0;
}

function renderSeats(engine, form) {
  const box = form.querySelector(".seats");
  const count = seatCount(form);
  const kept = new Map([...box.querySelectorAll("input.bot")].map((b) => [b.value, b.checked]));
  box.replaceChildren();
  box.append(element("label", {"class": "join"},
    element("input", {type: "checkbox", name: "join", "class": "join", checked: true}),
    " take a seat myself"));
  if (!engine.bot) {
    box.append(element("span", {"class": "hint", text: " (no bot: other seats wait for players)"}));
    return;
  }
  const bots = element("span", {"class": "bots"}, "bots in seats:");
  for (let n = 1; n <= count; n++) {
    const checked = kept.has(String(n)) ? kept.get(String(n)) : n > 1;
    bots.append(" ", element("label", {}, element("input", {type: "checkbox", "class": "bot", name: "bot",
                                                              value: n, checked}), ` P${n}`));
  }
  box.append(bots);
}

function readInit(engine, form) {
  const init = {};
  const problems = [];
  for (const input of form.querySelectorAll("input[data-param]")) {
    const name = input.dataset.param;
    const described = engine.parameters[name] || {};
    const text = input.value.trim();
    if (text === "") {
      if (described.default === undefined || described.default === null) problems.push(`“${name}” is required.`);
      continue;
    }
    if (described.type === "int" || described.type === "float") {
      const number = Number(text);
      if (!Number.isFinite(number) || (described.type === "int" && !Number.isInteger(number))) {
        problems.push(`“${name}” must be ${described.type === "int" ? "a whole number" : "a number"}.`);
        continue;
      }
      const [low, high] = Array.isArray(described.range) ? described.range : [null, null];
      if ((low !== null && low !== undefined && number < low) || (high !== null && high !== undefined && number > high)) {
        problems.push(`“${name}” must be between ${low ?? "-∞"} and ${high ?? "∞"}.`);
        continue;
      }
      init[name] = number;
    } else {
      if (described.format) {
        const pattern = compilePattern(described.format, true);
        if (pattern && !pattern.test(text)) {
          problems.push(`“${name}” must match ${described.format}.`);
          continue;
        }
      }
      init[name] = input.value;
    }
  }
  return {init, problems};
}

function create(engine, form) {
  const error = form.querySelector(".form-error");
  error.textContent = "";
  const {init, problems} = readInit(engine, form);
  if (problems.length) {
    error.textContent = problems.join(" ");
    return;
  }
  const bots = [...form.querySelectorAll("input.bot:checked")].map((b) => parseInt(b.value, 10))
    .filter((n) => n <= seatCount(form));
  const join = form.querySelector("input.join").checked;
  if (join && bots.length >= seatCount(form) && seatCount(form) > 0) {
    error.textContent = "Leave a seat without a bot for yourself, or untick “take a seat myself”.";
    return;
  }
  if (!join) {
    // Nobody to seat here: the HTTP API creates it, the listing shows its open seats.
    fetchJSON("/api/games", {method: "POST", headers: {"content-type": "application/json"},
                             body: JSON.stringify({engine: engine.name, init, bots})})
      .then((made) => {
        error.textContent = "";
        const text = `Game ${made.id} (${made.engine}) created: join it or share it from the list.`;
        if ($("#game").hidden) $("#lobby-problem").textContent = text;  // (where it is seen)
        else note(text);
        loadGames();
      })
      .catch((e) => {
        const errors = e.body && Array.isArray(e.body.errors) ? e.body.errors : null;
        error.textContent = errors ? errors.map(describeError).join(" ") : sentence(`Not created: ${e.message}`);
      });
    return;
  }
  whenInLobby(() => {
    state.pending = {kind: "create", form, join, origin: {kind: "create", engine: engine.name}};
    send({type: "create", engine: engine.name, init, bots, join, name: myName()});
  });
}

function queue(engine, form) {
  // A second click (a double click) while the queue is asked for or waited in: nothing more.
  if (queueing(engine.name)) return;
  const error = form.querySelector(".form-error");
  error.textContent = "";
  const name = myName();
  whenInLobby(() => {
    state.pending = {kind: "queue", engine: engine.name, form,
                     origin: {kind: "queue", engine: engine.name}};
    if (!send({type: "queue", engine: engine.name, name})) state.pending = null;
    renderQueueButtons();
  });
}

/** Whether the page asked to queue at ``engine``'s matchmaking, or waits there. */
function queueing(engine) {
  const pending = state.pending;
  return Boolean(pending && pending.kind === "queue" && pending.engine === engine) ||
    (state.mode === "queued" && state.queuedAt === engine);
}

/** Each "Play against anyone" is off while its queue is asked for or waited in. */
function renderQueueButtons() {
  for (const button of document.querySelectorAll("form.engine button.queue")) {
    button.disabled = queueing(button.closest("form.engine").dataset.engine);
  }
}

function join(gameId, player) {
  $("#lobby-problem").textContent = "";
  whenInLobby(() => {
    state.pending = {kind: "join"};
    const message = {type: "join", game: gameId, name: myName()};
    if (player) message.player = player;
    const token = player ? savedToken(gameId, player) : null;
    if (token) message.token = token;
    send(message);
  });
}

function watch(gameId) {
  $("#lobby-problem").textContent = "";
  whenInLobby(() => {
    state.pending = {kind: "watch"};
    send({type: "watch", game: gameId});
  });
}

/** The same again: queue at the same matchmaking, or create a game from the same form. */
function playAgain() {
  const origin = state.origin;
  if (!origin) return;
  const engine = state.engines.find((e) => e.name === origin.engine);
  const form = document.querySelector(`form.engine[data-engine="${CSS.escape(origin.engine)}"]`);
  if (!engine || !form) {
    showError({text: `The game “${origin.engine}” is not offered any more.`, source: "page"});
    return;
  }
  if (origin.kind === "queue") queue(engine, form);
  else create(engine, form);
}

/** Run ``then`` once this page holds no seat, queue or watch any more. */
function whenInLobby(then) {
  if (state.afterLeft) {
    state.afterLeft = then;  // a leave is on its way already: this once it is done
    return;
  }
  if (state.pending) {
    showError({text: "Wait for the server's answer to your last request.", source: "page"});
    return;
  }
  if (["seated", "queued", "watching"].includes(state.mode)) {
    if (state.mode === "seated" && !state.ended &&
        !window.confirm("Leave the game you are playing? (a bot may take your seat)")) {
      return;
    }
    state.afterLeft = then;
    if (!send({type: "leave"})) state.afterLeft = null;
    return;
  }
  if (state.mode === "replay" || state.mode === "ended") {
    state.mode = "lobby";
    state.replay = null;
  }
  then();
}

// -- lobby: games ---------------------------------------------------------------

async function loadEngines() {
  try {
    const [data, matchmaking] = await Promise.all([
      fetchJSON("/api/engines"),
      // Without the matchmakers the page still creates and joins games.
      fetchJSON("/api/matchmaking").catch(() => ({matchmaking: []})),
    ]);
    state.engines = data.engines || [];
    state.matchmaking = new Map();
    for (const entry of matchmaking.matchmaking || []) {
      if (entry && typeof entry.engine === "string" && typeof entry.title === "string") {
        state.matchmaking.set(entry.engine, entry.title);
      }
    }
    renderEngines();
    renderQueueButtons();
    showWaiting(matchmaking);
  } catch (e) {
    $("#engines").replaceChildren(element("p", {"class": "form-error",
                                                text: sentence(`The engines cannot be listed: ${e.message}`)}));
  }
}

/** Who waits at each matchmaking now: refreshed with the list of games. */
async function loadWaiting() {
  if (!state.matchmaking.size) return;
  let matchmaking;
  try {
    matchmaking = await fetchJSON("/api/matchmaking");
  } catch (e) {
    return;  // the next refresh tries again
  }
  showWaiting(matchmaking);
}

function showWaiting(matchmaking) {
  state.waiting = new Map();
  for (const entry of matchmaking.matchmaking || []) {
    if (entry && typeof entry.engine === "string" && Array.isArray(entry.players)) {
      state.waiting.set(entry.engine, entry.players.filter((n) => typeof n === "string"));
    }
  }
  for (const node of document.querySelectorAll("small.queue-waiting")) {
    const engine = node.dataset.engine;
    const names = state.waiting.get(engine) || [];
    const title = state.matchmaking.get(engine) || engine;
    node.dataset.waiting = names.length;
    node.textContent = names.length
      ? `${names.length} waiting for a ${title} game: ${listWords(names)}.`
      : `Nobody is waiting for a ${title} game.`;
  }
}

async function loadGames() {
  const query = state.games;
  const params = new URLSearchParams({offset: query.offset, limit: GAMES_PAGE});
  if (query.status) params.set("status", query.status);
  let data;
  try {
    data = await fetchJSON(`/api/games?${params}`);
  } catch (e) {
    $("#games-updated").textContent = `cannot list the games: ${e.message}`;
    return;
  }
  const text = JSON.stringify(data);
  $("#games-updated").textContent = `updated ${new Date().toLocaleTimeString()}`;
  if (text === query.last) return;
  query.last = text;
  query.total = data.total || 0;
  if (query.offset && query.offset >= query.total) {
    query.offset = Math.max(0, query.total - GAMES_PAGE);
    query.last = "";
    loadGames();
    return;
  }
  renderGames(data.games || []);
}

function renderGames(games) {
  const body = $("#games tbody");
  body.replaceChildren();
  if (!games.length) {
    body.append(element("tr", {"class": "empty"}, element("td", {colspan: 7, text: "No game yet."})));
  }
  for (const game of games) {
    const seats = (game.seats || []).map((name, i) => {
      const open = Array.isArray(game.open) && game.open.includes(i + 1);
      return element("span", {"class": open ? "seat open" : "seat", "data-player": i + 1,
                              text: `P${i + 1} ${open ? "(open)" : name}`});
    });
    const seatCell = element("td", {"class": "seat-list"}, ...seats);
    const status = element("td", {"class": `status ${game.status}`, text: game.status,
                                  title: game.error || null});
    if (game.error) status.append(element("small", {"class": "error-text", text: ` ${sentence(game.error)}`}));
    const open = Array.isArray(game.open) ? game.open.length : 0;
    if (game.status === "live" && game.joinable && open) {
      // Who waits where: a game with open seats waits for that many players.
      status.append(element("small", {"class": "waiting-text",
                                       text: ` waiting for ${open} player${open > 1 ? "s" : ""}`}));
    }
    const actions = element("td", {"class": "actions"});
    if (game.joinable && Array.isArray(game.open)) {
      for (const player of game.open) {
        actions.append(element("button", {type: "button", "class": "join", "data-player": player,
                                          onclick: () => join(game.id, player),
                                          text: `Join as P${player}`}));
      }
    }
    if (game.joinable && game.status === "live") {
      (game.seats || []).forEach((name, i) => {
        const player = i + 1;
        const mine = state.mode === "seated" && state.game && state.game.id === game.id &&
          state.game.player === player;
        if (mine || (Array.isArray(game.open) && game.open.includes(player)) ||
            !savedToken(game.id, player)) return;
        actions.append(element("button", {type: "button", "class": "rejoin", "data-player": player,
                                          onclick: () => join(game.id, player),
                                          text: `Rejoin as P${player}`}));
      });
    }
    if (game.status === "live") {
      actions.append(element("button", {type: "button", "class": "watch",
                                        onclick: () => watch(game.id), text: "Watch"}));
    } else {
      actions.append(element("button", {type: "button", "class": "replay",
                                        onclick: () => openReplay(game.id), text: "Replay"}));
    }
    // (data-label: the column's name, said in each cell where a phone drops the head)
    body.append(element("tr", {"data-game-id": game.id, "data-status": game.status},
      element("td", {"class": "id", "data-label": "Game", text: game.id}),
      element("td", {"class": "engine", text: game.engine}),
      seatCell,
      status,
      element("td", {"class": "turns", "data-label": "Turns", text: game.turns ?? ""}),
      element("td", {"class": "scores", "data-label": "Scores",
                     text: Array.isArray(game.scores) ? game.scores.join(" : ") : ""}),
      actions));
  }
  const query = state.games;
  const first = query.total ? query.offset + 1 : 0;
  const last = Math.min(query.offset + GAMES_PAGE, query.total);
  $("#games-page").textContent = `${first}–${last} of ${query.total}`;
  $("#games-prev").disabled = query.offset <= 0;
  $("#games-next").disabled = query.offset + GAMES_PAGE >= query.total;
}

// -- replays --------------------------------------------------------------------

/**
 * Open a replay.  It has one entry in the browser's history: a new one
 * (Back leaves the replay), or, opened from the address, that address's.
 */
async function openReplay(gameId, turn = 0, player = null, fromAddress = false) {
  if (["seated", "queued", "watching"].includes(state.mode)) {
    whenInLobby(() => openReplay(gameId, turn, player, fromAddress));
    return;
  }
  let game;
  try {
    game = await fetchJSON(`/api/games/${gameId}`);
  } catch (e) {
    const text = sentence(`Game ${gameId} cannot be replayed: ${e.message}`);
    if ($("#game").hidden) $("#lobby-problem").textContent = text;  // (where it is seen)
    else showError({text, source: "page"});
    return;
  }
  state.mode = "replay";
  resetView();
  setLastMove("");  // (a game watched before: its last move is not this replay's)
  state.game = null;
  state.requested = [];
  state.ended = false;
  cancelConfirm();
  clearErrors();
  state.replay = {id: game.id, engine: game.engine, turns: game.turns || 0,
                  turn: Math.min(Math.max(turn, 0), game.turns || 0), player,
                  seats: game.seats || [], seq: 0};
  showGameView();
  clearBoard();
  showGameButtons();
  renderActions();
  $("#board").dataset.game = game.id;
  $("#game-title").textContent = `Replay of game ${game.id} · ${game.engine}` +
    (game.status === "aborted" ? " (aborted)" : "");
  const select = $("#replay-player");
  select.replaceChildren(element("option", {value: "", text: "a spectator"}));
  state.replay.seats.forEach((name, i) => {
    select.append(element("option", {value: i + 1, text: `P${i + 1} ${name}`}));
  });
  select.value = player ? String(player) : "";
  setHash(replayHash(state.replay), !fromAddress);  // each step replaces it
  if (game.error) showError({text: sentence(`This game was aborted: ${namify(game.error)}`), type: "aborted"});
  await showTurn(state.replay.turn);
}

async function showTurn(turn) {
  const replay = state.replay;
  if (!replay) return;
  turn = Math.min(Math.max(Math.round(Number(turn) || 0), 0), replay.turns);
  replay.turn = turn;
  const seq = ++replay.seq;
  updateReplayControls();
  const params = new URLSearchParams({turn});
  if (replay.player) params.set("player", replay.player);
  setStatus("loading", `Replay of game ${replay.id}: loading turn ${turn}…`);
  // A seat's view of a live game is its holder's: the seat's token says so.
  const token = replay.player ? savedToken(replay.id, replay.player) : null;
  const headers = token ? {authorization: `Bearer ${token}`} : {};
  let answer;
  try {
    answer = await fetchJSON(`/api/games/${replay.id}/replay?${params}`, {headers});
  } catch (e) {
    if (seq === replay.seq && state.replay === replay) {
      setStatus("replay", sentence(`Turn ${turn} cannot be shown: ${e.message}`));
      showError({text: sentence(`Turn ${turn} cannot be shown: ${e.message}`), source: "page"});
    }
    return;
  }
  if (seq !== replay.seq || state.replay !== replay) return;  // a later step is on its way
  replay.turns = answer.turns;
  const display = (answer.displays || [])[0];
  if (display) renderBoard(display, replay.engine);
  else $("#board").replaceChildren();
  $("#board").dataset.turn = turn;
  renderScores(answer.game_state);
  const over = answer.game_state && answer.game_state.gameover;
  const said = answer.game_state && typeof answer.game_state.text === "string"
    ? namify(answer.game_state.text) : "";
  setStatus("replay", sentence(`Replay of game ${replay.id}: turn ${turn} of ${answer.turns}` +
            (over ? ` · game over: ${describeResult(answer.game_state.scores)}${said ? ` — ${said}` : ""}` : "")));
  $("#replay-action").textContent = replayLabel(answer.action, said, over);
  updateReplayControls();
  setHash(replayHash(replay));
}

/** What led to a replayed turn, in words: the engine's own, else who acted. */
function replayLabel(action, said, over) {
  if (!action) return "The start of the game.";
  const who = seatName(action.seat + 1);
  if (action.kind === "resign") return `${capitalised(who)} gave up${over && said ? ` — ${said}` : ""}.`;
  if (said) return over ? `Game over — ${said}.` : `${capitalised(said)}.`;
  if (action.action === null || action.action === undefined) return `${capitalised(who)} played (hidden while the game is live).`;
  return `${capitalised(who)} played.`;
}

function replayHash(replay) {
  return `replay=${replay.id}&turn=${replay.turn}` + (replay.player ? `&player=${replay.player}` : "");
}

function updateReplayControls() {
  const replay = state.replay;
  if (!replay) return;
  $("#replay-turn").value = replay.turn;
  $("#replay-turn").max = replay.turns;
  $("#replay-turns").textContent = replay.turns;
  $("#replay-first").disabled = $("#replay-prev").disabled = replay.turn <= 0;
  $("#replay-last").disabled = $("#replay-next").disabled = replay.turn >= replay.turns;
  const link = $("#replay-link");
  link.href = `${location.origin}${location.pathname}#${replayHash(replay)}`;
  link.textContent = `Link to turn ${replay.turn}`;
}

// -- the address bar: #replay=ID&turn=N&player=P or #watch=ID ------------------------

/** The address says what is shown: the history's entry replaced, or (``push``) a new one. */
function setHash(value, push = false) {
  const wanted = value ? `#${value}` : "";
  if (location.hash !== wanted) {
    const url = wanted || location.pathname + location.search;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }
}

function openFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const replay = parseInt(params.get("replay"), 10);
  if (Number.isInteger(replay)) {
    const player = parseInt(params.get("player"), 10);
    const seen = Number.isInteger(player) ? player : null;
    const turn = parseInt(params.get("turn"), 10) || 0;
    const open = state.replay;
    if (state.mode === "replay" && open && open.id === replay) {
      // The same replay: step to the turn (and the view) the address names.
      if (open.turn === turn && open.player === seen) return;
      open.player = seen;
      $("#replay-player").value = seen ? String(seen) : "";
      showTurn(turn);
      return;
    }
    openReplay(replay, turn, seen, true);
    return;
  }
  const watched = parseInt(params.get("watch"), 10);
  if (Number.isInteger(watched)) {
    if (!(state.mode === "watching" && state.game && state.game.id === watched)) {
      const start = () => (state.connected ? watch(watched) : setTimeout(start, 200));
      start();
    }
    return;
  }
  // Back from a replay to an address that names nothing: the lobby, where the person was.
  if (state.mode === "replay") closeGame();
}

// -- wiring -----------------------------------------------------------------------

function setUp() {
  const name = $("#name");
  let saved = null;
  try {
    saved = localStorage.getItem("gameproto.name");
  } catch (e) {
    saved = null;
  }
  name.value = saved || `player${Math.floor(Math.random() * 10000).toString().padStart(4, "0")}`;
  name.addEventListener("change", () => {
    try {
      localStorage.setItem("gameproto.name", name.value.trim());
    } catch (e) {
      // private browsing: the name is not kept
    }
  });

  const board = $("#board");
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  board.addEventListener("mousedown", (event) => {
    state.downButton = event.button;
    if (event.button === 1) event.preventDefault();  // no autoscroll on the board
  });
  board.addEventListener("mouseup", (event) => {
    const pressed = state.downButton;
    state.downButton = null;
    if (pressed !== event.button || !event.target.closest("svg")) return;
    if (event.button === 1) boardClick("MIDDLE", event);
    else if (event.button === 2) boardClick("RIGHT", event);
  });
  setUpPanZoom(board);
  board.addEventListener("click", (event) => {
    if (event.button !== 0 || !event.target.closest("svg") || justDragged()) return;
    const click = findRequest("CLICK");
    const buttons = click && Array.isArray(click.buttons) ? click.buttons : ["LEFT"];
    if (click && buttons.includes("DOUBLE")) {
      if (!buttons.includes("LEFT")) return;  // only a double click counts
      if (event.detail > 1) return;            // the second click of a double click
      const copy = {clientX: event.clientX, clientY: event.clientY, pointerType: event.pointerType};
      clearTimeout(state.leftTimer);
      state.leftTimer = setTimeout(() => boardClick("LEFT", copy), DOUBLE_CLICK_MS);
      return;
    }
    boardClick("LEFT", event);
  });
  board.addEventListener("dblclick", (event) => {
    if (!event.target.closest("svg")) return;
    const click = findRequest("CLICK");
    const buttons = click && Array.isArray(click.buttons) ? click.buttons : ["LEFT"];
    if (!click || !buttons.includes("DOUBLE")) return;
    clearTimeout(state.leftTimer);
    state.leftTimer = null;
    boardClick("DOUBLE", event);
  });
  board.addEventListener("mousemove", (event) => {
    const svg = board.querySelector("svg");
    const zones = svg ? svg.querySelectorAll("rect.zone") : [];
    if (!zones.length) return;
    const {x, y} = displayPoint(svg, event);
    for (const rect of zones) {
      const zone = {x: Number(rect.getAttribute("x")), y: Number(rect.getAttribute("y")),
                    width: Number(rect.getAttribute("width")), height: Number(rect.getAttribute("height"))};
      rect.classList.toggle("hover", inZone(zone, x, y));
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.confirmAction) {
      cancelConfirm();
      return;
    }
    if (state.mode === "replay" && !isTyping(event.target)) {
      if (event.key === "ArrowRight") showTurn(state.replay.turn + 1);
      else if (event.key === "ArrowLeft") showTurn(state.replay.turn - 1);
      return;
    }
    if (state.mode !== "seated" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target) || event.key.length !== 1) return;
    if (event.target.closest && event.target.closest("button") && (event.key === " " || event.key === "Enter")) return;
    if (pressKey(event.key)) event.preventDefault();
  });

  $("#pick-send").addEventListener("click", sendPick);
  $("#pick-clear").addEventListener("click", () => {
    if (state.pick) state.pick.chosen.clear();
    renderZones();
    renderPickBar();
  });
  $("#again").addEventListener("click", playAgain);
  $("#replay-copy").addEventListener("click", async () => {
    const link = $("#replay-link").href;
    try {
      await navigator.clipboard.writeText(link);
      note("The link to this turn is copied.");
    } catch (e) {
      window.prompt("The link to this turn:", link);
    }
  });
  window.addEventListener("hashchange", openFromHash);
  setInterval(() => {
    if (state.clocks.size && !document.hidden) {
      renderTurn();
      renderClocks();
    }
  }, TICK_MS);

  $("#confirm-yes").addEventListener("click", () => {
    if (state.confirmAction) sendAction(state.confirmAction.action);
  });
  $("#confirm-no").addEventListener("click", cancelConfirm);
  $("#text-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendText($("#text-input").value);
  });
  $("#text-input").addEventListener("input", () => $("#text-input").setCustomValidity(""));

  $("#leave").addEventListener("click", () => {
    if (state.mode === "seated" && !state.ended &&
        !window.confirm("Leave the game? (a bot may take your seat, or you forfeit)")) return;
    send({type: "leave"});
  });
  $("#close-game").addEventListener("click", closeGame);

  $("#replay-first").addEventListener("click", () => showTurn(0));
  $("#replay-prev").addEventListener("click", () => showTurn(state.replay.turn - 1));
  $("#replay-next").addEventListener("click", () => showTurn(state.replay.turn + 1));
  $("#replay-last").addEventListener("click", () => showTurn(state.replay.turns));
  $("#replay-turn").addEventListener("change", (event) => showTurn(event.target.value));
  $("#replay-player").addEventListener("change", (event) => {
    if (!state.replay) return;
    state.replay.player = event.target.value ? parseInt(event.target.value, 10) : null;
    showTurn(state.replay.turn);
  });

  $("#games-filter").addEventListener("change", (event) => {
    state.games.status = event.target.value;
    state.games.offset = 0;
    state.games.last = "";
    loadGames();
  });
  $("#games-refresh").addEventListener("click", () => {
    state.games.last = "";
    loadGames();
  });
  $("#games-prev").addEventListener("click", () => {
    state.games.offset = Math.max(0, state.games.offset - GAMES_PAGE);
    loadGames();
  });
  $("#games-next").addEventListener("click", () => {
    state.games.offset += GAMES_PAGE;
    loadGames();
  });
  setInterval(() => {
    if (!document.hidden) {
      loadGames();
      loadWaiting();
    }
  }, REFRESH_MS);
}

function isTyping(target) {
  return Boolean(target && target.closest &&
                 target.closest("input, textarea, select, [contenteditable]"));
}

setUp();
connect();
loadEngines();
loadGames();
openFromHash();
