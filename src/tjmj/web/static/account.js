// The account page (/account, issue 31): who is signed in and since when, change the password,
// delete the account; signed out, the log-in / sign-up form. The session is the HttpOnly cookie.
import { applyI18n, lang, langToggle, t } from "./i18n.js";
import { el, playerUrl } from "./render.js";
import { accountCall, accountError, authForm, whoAmI } from "./auth.js";

const $ = (id) => document.getElementById(id);
let account = null; // {name, created, player_id} from GET /api/account/me, or null
let loaded = false;

const auth = authForm({ id: "page-auth", onDone: (me) => { account = me; render(); $("logout").focus(); } });
$("auth-box").append(auth.form);

function since(created) {
  if (!created) return "";
  const d = new Date(created);
  if (Number.isNaN(d.getTime())) return "";
  return t("acct_since", d.toLocaleDateString(lang() === "zh" ? "zh-CN" : "en", { year: "numeric", month: "long", day: "numeric" }));
}

function render() {
  document.title = `${t("acct_title")} — ${t("title")}`;
  auth.render();
  $("loading").hidden = loaded;
  $("signed-in").hidden = !loaded || !account;
  $("signed-out").hidden = !loaded || !!account;
  if (!account) return;
  $("signed-in-as").replaceChildren(t("acct_signed_in_as"), " ", el("strong", {}, account.name));
  $("since").textContent = since(account.created);
  $("change-user").value = account.name; // for password managers: whose password changes
  if (account.player_id) $("my-stats").href = playerUrl(account.name, account.player_id);
  else $("my-stats").href = playerUrl(account.name);
}

function signedOut(message) {
  account = null;
  render();
  $("page-status").textContent = message || "";
}

$("logout").addEventListener("click", async () => {
  const r = await accountCall("/api/account/logout", {});
  if (!r.ok) { $("page-status").textContent = accountError(r); return; }
  signedOut("");
  $("page-auth-name").focus();
});

// Send a settings form: its button off while the server answers, the answer in its status line.
// A 401 other than a wrong password means the session ended: the page shows the signed-out view.
async function submitSettings(form, status, path, body) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  status.textContent = t("acct_working");
  const r = await accountCall(path, body);
  button.disabled = false;
  if (!r.ok) {
    status.textContent = accountError(r);
    if (r.status === 401 && !/wrong name or password/.test((r.data && r.data.error) || "")) signedOut(status.textContent);
    return null;
  }
  form.reset();
  return r;
}

$("change").addEventListener("submit", async (e) => {
  e.preventDefault();
  const status = $("change-status");
  const current = $("current").value, new1 = $("new1").value, new2 = $("new2").value;
  if (!current) { status.textContent = t("acct_err_wrong"); $("current").focus(); return; }
  if (new1.length < 8 || new1.length > 200) { status.textContent = t("acct_err_password"); $("new1").focus(); return; }
  if (new1 !== new2) { status.textContent = t("acct_err_mismatch"); $("new2").focus(); return; }
  const r = await submitSettings(e.target, status, "/api/account/password", { password: current, new_password: new1 });
  if (r) status.textContent = t("acct_password_changed");
});

$("delete").addEventListener("submit", async (e) => {
  e.preventDefault();
  const status = $("delete-status");
  const password = $("delete-password").value;
  if (!password) { status.textContent = t("acct_err_wrong"); $("delete-password").focus(); return; }
  const r = await submitSettings(e.target, status, "/api/account/delete", { password });
  if (!r) return;
  status.textContent = "";
  signedOut(t("acct_deleted", r.data.deleted));
  $("page-status").focus();
});

langToggle($("lang"), render);
applyI18n();
render();
whoAmI({ ask: true }).then((me) => {
  account = me;
  loaded = true;
  render();
});
