// The console's shell: who is signed in, the navigation, and one page at a time in <main> (hash routes, so
// the gateway serves one static file and no route ever carries data in a path the server sees).
import { api, ApiError, hasToken, setToken } from './api.js';
import { add, clear, errorBox, h, put } from './dom.js';
import { PAGES } from './pages/index.js';

const RANK = { none: 0, viewer: 1, operator: 2, admin: 3 };
const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const signOut = document.getElementById('sign-out');
const login = document.getElementById('login');
let principal = null;
let leave = null;

/** True when the signed-in caller has at least this role (the server checks again on every call). */
export const can = (role) => RANK[principal?.role ?? 'none'] >= RANK[role];

function parseRoute() {
  const [name, ...rest] = (location.hash.replace(/^#\/?/, '') || 'status').split('/');
  return { name, params: rest.map((p) => decodeURIComponent(p)) };
}

async function show() {
  if (!principal) return;
  leave?.();
  leave = null;
  const route = parseRoute();
  const page = PAGES[route.name] ?? PAGES.status;
  for (const link of nav.querySelectorAll('a')) link.classList.toggle('active', link.dataset.page === route.name);
  clear(main);
  main.dataset.page = route.name;
  const timers = [];
  const ctx = {
    main,
    params: route.params,
    principal,
    can,
    /** setInterval that stops when the operator leaves the page. */
    every: (ms, fn) => timers.push(setInterval(fn, ms)),
    /** Runs when the page is left (abort polls, revoke object URLs). */
    onLeave: (fn) => timers.push(fn),
  };
  leave = () => timers.forEach((t) => (typeof t === 'function' ? t() : clearInterval(t)));
  try {
    await page(ctx);
  } catch (err) {
    add(main, errorBox(err));
  }
}

function signedIn(me) {
  principal = me;
  login.hidden = true;
  nav.hidden = false;
  signOut.hidden = !hasToken();
  document.body.dataset.role = me.role;
  put(who, h('span', {}, me.subject), ' ', h('span', { class: `role role-${me.role}` }, me.role));
  void show();
}

function askForToken(message) {
  principal = null;
  nav.hidden = true;
  signOut.hidden = true;
  clear(main);
  clear(who);
  login.hidden = false;
  document.getElementById('login-error').textContent = message ?? '';
  document.getElementById('login-token').focus();
}

/** Asks the API who we are: the SSO proxy's identity, loopback, or the token of this tab. */
async function identify() {
  try {
    signedIn((await api('/admin/whoami')).body);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      if (hasToken()) setToken(null);
      askForToken(err.status === 403 ? err.message : '');
    } else {
      askForToken(`The admin API could not be reached: ${err.message}`);
    }
  }
}

document.getElementById('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = document.getElementById('login-token');
  setToken(input.value.trim());
  input.value = '';
  await identify();
  if (!principal) document.getElementById('login-error').textContent ||= 'That token was refused.';
});

signOut.addEventListener('click', () => {
  setToken(null);
  leave?.();
  askForToken('Signed out.');
});

window.addEventListener('hashchange', () => void show());
void identify();
