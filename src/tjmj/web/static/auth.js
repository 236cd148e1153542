// Accounts in the browser (issue 31): the calls to /api/account/…, their errors in the chosen
// language, and the log-in / sign-up form the lobby and the /account page share. The session is an
// HttpOnly cookie: the page never sees it, it asks GET /api/account/me who is signed in.
import { t } from "./i18n.js";
import { el, playerId } from "./render.js";

// "tjmj.account" in localStorage: the name this browser signed in as (the cookie itself is out of
// the page's reach). A guest's page does not ask GET /api/account/me: its 401 would be a console
// error on every lobby visit. Set and cleared by the calls below; the /account page always asks.
const HINT = "tjmj.account";
function note(path, r) {
  const name = r.data && r.data.name;
  if (r.ok && name && /\/(me|login|signup|password)$/.test(path)) localStorage.setItem(HINT, name);
  else if ((r.ok && /\/(logout|delete)$/.test(path)) || (r.status === 401 && path.endsWith("/me"))) localStorage.removeItem(HINT);
}

// POST (with a body) or GET an account route: {ok, status, data, retry} (retry: Retry-After, s)
export async function accountCall(path, body) {
  const opts = body === undefined ? { cache: "no-store" } : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let r;
  try {
    r = await fetch(path, opts);
  } catch {
    return { ok: false, status: 0, data: null, retry: 0 };
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  const res = { ok: r.ok, status: r.status, data, retry: Number(r.headers.get("Retry-After")) || 0 };
  note(path, res);
  return res;
}

// The signed-in account {name, created, player_id}, or null (a guest, or the server unreachable).
// Without {ask: true} only a browser that signed in asks (see HINT).
export async function whoAmI({ ask = false } = {}) {
  if (!ask && !localStorage.getItem(HINT)) return null;
  const r = await accountCall("/api/account/me");
  return r.ok && r.data && r.data.name ? r.data : null;
}

// A failed call in words: the server's English errors, the common ones translated
export function accountError(r) {
  const text = String((r.data && r.data.error) || "");
  if (r.status === 0) return t("acct_err_network");
  if (r.status === 429) return r.retry ? t("acct_err_rate_s", Math.ceil(r.retry / 60)) : t("acct_err_rate");
  if (r.status === 401 && /wrong name or password/.test(text)) return t("acct_err_wrong");
  if (r.status === 401) return t("acct_err_signed_out");
  if (r.status === 409) return t("acct_err_taken");
  if (/'(new_)?password' must be/.test(text)) return t("acct_err_password");
  if (/'name' must be/.test(text)) return t("acct_err_name");
  return t("err_other", text || String(r.status));
}

// The form to log in or sign up. opts.id: a prefix for the element ids (unique on the page);
// opts.onDone(me): called once signed in. Returns {form, open(mode), close(), render()}.
export function authForm({ id, onDone, onCancel = null }) {
  let mode = "login";
  const nameIn = el("input", { id: `${id}-name`, name: "username", autocomplete: "username", maxlength: "20",
    required: true, spellcheck: "false", autocapitalize: "none" });
  const passIn = el("input", { id: `${id}-password`, name: "password", type: "password", required: true,
    maxlength: "200", "aria-describedby": `${id}-hint` });
  const title = el("h2", { id: `${id}-title` });
  const nameLabel = el("label", { for: nameIn.id });
  const passLabel = el("label", { for: passIn.id });
  const hint = el("p", { id: `${id}-hint`, class: "muted small" });
  const status = el("p", { id: `${id}-status`, class: "auth-status", "aria-live": "polite", "data-testid": `${id}-status` });
  const submit = el("button", { class: "primary", type: "submit", "data-testid": `${id}-submit` });
  const swap = el("button", { class: "link", type: "button", "data-testid": `${id}-swap`,
    onclick: () => { open(mode === "login" ? "signup" : "login"); } });
  const cancel = onCancel ? el("button", { type: "button", onclick: onCancel }) : null;
  const form = el("form", { id, class: "authform", "aria-labelledby": title.id, novalidate: true },
    title,
    el("div", { class: "field" }, nameLabel, nameIn),
    el("div", { class: "field" }, passLabel, passIn, hint),
    el("div", { class: "authbuttons" }, submit, cancel, swap),
    status);

  function render() {
    const login = mode === "login";
    title.textContent = t(login ? "acct_login_title" : "acct_signup_title");
    nameLabel.textContent = t("acct_name");
    passLabel.textContent = t("acct_password");
    hint.textContent = t(login ? "acct_login_hint" : "acct_password_hint");
    submit.textContent = t(login ? "acct_login" : "acct_signup");
    swap.textContent = t(login ? "acct_to_signup" : "acct_to_login");
    if (cancel) cancel.textContent = t("acct_cancel");
    passIn.setAttribute("autocomplete", login ? "current-password" : "new-password");
    passIn.setAttribute("minlength", login ? "1" : "8");
    form.dataset.mode = mode;
  }

  function open(m) {
    mode = m;
    status.textContent = "";
    render();
    form.hidden = false;
    nameIn.focus();
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = nameIn.value.trim();
    const password = passIn.value;
    if (!name) { status.textContent = t("acct_err_name"); nameIn.focus(); return; }
    if (mode === "signup" && password.length < 8) { status.textContent = t("acct_err_password"); passIn.focus(); return; }
    if (!password) { status.textContent = t("acct_err_wrong"); passIn.focus(); return; }
    submit.disabled = true;
    status.textContent = t("acct_working");
    // a sign-up carries this browser's guest id: the matches played here as a guest come along
    const body = mode === "login" ? { name, password } : { name, password, player_id: playerId() };
    const r = await accountCall(`/api/account/${mode === "login" ? "login" : "signup"}`, body);
    submit.disabled = false;
    if (!r.ok) {
      status.textContent = accountError(r);
      return;
    }
    passIn.value = "";
    status.textContent = "";
    const me = await whoAmI();
    onDone(me || { name: r.data.name, created: null, player_id: null });
  });

  render();
  return { form, open, render, close: () => { form.hidden = true; status.textContent = ""; } };
}
