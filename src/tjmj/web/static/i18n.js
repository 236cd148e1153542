// Interface strings in Chinese and English; the choice is kept in localStorage ("tjmj.lang").

const STRINGS = {
  title: ["天津麻将", "Tianjin Mahjong"],
  subtitle: ["天津麻将：混儿、捉伍、龙、坐庄拉庄；北京麻将：吃、点炮、混儿悠、上楼",
    "Tianjin mahjong (wilds, zhuowu, dragons, sit and pull) and Beijing mahjong (chi, discard wins, 混儿悠, 上楼)"],
  your_name: ["你的名字", "Your name"],
  quick: ["和三个机器人打一局", "Play against three bots"],
  quick_note: ["马上开始：4 局，高手机器人", "Starts at once: 4 hands against the strong bots"],
  create: ["开房间", "Create a room"],
  create_note: ["邀请朋友：把房间码或链接发给他们", "Invite friends: send them the room code or link"],
  preset: ["规则", "Rules"],
  preset_classic: ["经典 classic", "classic"],
  preset_yiyou: ["一游 yiyou（网游规则）", "yiyou (the online game)"],
  preset_beijing: ["北京 B：一个混儿、番数相乘、混儿悠、上楼", "beijing (version B: one wild, multiplied value, 混儿悠, 上楼)"],
  preset_beijing_a: ["北京 A：无混儿、番数相加、包三家、互包", "beijing_a (version A: no wild, added fan, 包三家, 互包)"],
  family: ["玩法", "Game"],
  family_tianjin: ["天津麻将", "Tianjin mahjong"],
  family_beijing: ["北京麻将", "Beijing mahjong"],
  match_length: ["局数", "Match length"],
  hands_n: ["{0} 局", "{0} hands"],
  full_match: ["四圈", "4 rounds (full)"],
  bot_strength: ["机器人", "Bots"],
  bot_strong: ["高手（算分）", "strong (plays for value)"],
  bot_baseline: ["基准（会打）", "baseline (plays sensibly)"],
  bot_random: ["随机（很弱）", "random (weak)"],
  bot_greedy: ["随机但会和", "greedy (random, wins when it can)"],
  timer: ["每步限时", "Turn timer"],
  no_timer: ["不限时", "none"],
  seconds_n: ["{0} 秒", "{0} s"],
  join: ["加入", "Join"],
  join_code: ["房间码", "Room code"],
  join_note: ["用房间码加入朋友的房间", "Join a friend's room by its code"],
  history: ["历史对局", "History"],
  lobby: ["大厅", "Lobby"],
  room: ["房间", "Room"],
  waiting_for_players: ["等待玩家", "Waiting for players"],
  share: ["把这个链接发给朋友：", "Send this link to your friends:"],
  copy: ["复制", "Copy"],
  copied: ["已复制", "Copied"],
  start: ["开始（空位由机器人补上）", "Start (bots fill the empty seats)"],
  host_starts: ["等房主开始", "Waiting for the host to start"],
  watch: ["观战", "Watch"],
  opened_elsewhere: ["这个座位已在另一个窗口打开", "This seat was opened in another window"],
  use_here: ["在这里继续", "Play here"],
  stopped: ["对局已停止", "The match has stopped"],
  saving: ["正在保存这一局…", "Saving the hand…"],
  no_room: ["没有这个房间", "No such room"],
  bot: ["机器人", "bot"],
  away: ["离开", "away"],
  host: ["房主", "host"],
  you: ["你", "you"],
  hand_of: ["第 {0} 局", "Hand {0}"],
  round_of: ["第 {0} 圈", "round {0}"],
  wall_left: ["牌墙剩 {0}", "{0} tiles left"],
  indicator: ["翻混", "Indicator"],
  wilds: ["混儿", "Wilds"],
  dice: ["骰子", "Dice"],
  dealer: ["庄", "dealer"],
  sat: ["坐", "sits"],
  pulled: ["拉×{0}", "pull ×{0}"],
  score: ["分", "score"],
  turn_of: ["{0} 的回合", "{0} to act"],
  your_turn: ["轮到你了", "Your turn"],
  choose_sit: ["你是庄家：坐庄吗？（坐庄输赢都翻倍）", "You are the dealer: sit? (doubles what you win or pay)"],
  choose_pull: ["拉庄吗？（和庄家之间的输赢翻倍）", "Pull? (doubles what passes between you and the dealer)"],
  waiting_choice: ["{0} 正在选择", "{0} is choosing"],
  hints: ["提示", "Hints"],
  hint_title: ["打哪张，听什么", "What each discard leaves you waiting on"],
  hint_none: ["轮到你出牌时显示", "Shown on your turn to discard"],
  shanten_n: ["{0} 向听", "{0} from ready"],
  ready: ["听牌", "ready"],
  shanten_short: ["{0}向听", "{0} away"],
  fan_n: ["{0} 番", "{0} fan"],
  live_n: ["剩 {0}", "{0} live"],
  not_win: ["不够和", "cannot win"],
  discard_wild: ["打出混儿会成为小相公：本局不能再和。确定吗？", "Discarding a wild makes you 小相公: no more wins this hand. Discard it?"],
  xiaoxianggong: ["小相公", "no wins (小相公)"],
  indicator_bj: ["混坯", "混坯 (indicator)"],
  wild_bj: ["混儿", "Wild"],
  reserve_line: ["离荒牌还有 {0} 张 · 保留 {1} 张", "{0} tiles before the hand is drawn (荒牌) · {1} kept back"],
  upstairs_mark: ["上楼 ×2", "上楼: payments ×2"],
  upstairs_title: ["荒牌后上楼：支付加倍，直到北家坐庄结束", "After a drawn hand (上楼) every payment doubles until North's dealership ends"],
  shaozhuang_mark: ["烧庄 ×{0}", "烧庄 ×{0}"],
  shaozhuang_title: ["庄家第一张牌被三家跟打：庄家付给每家", "The dealer's first discard was followed by all three: the dealer pays each"],
  hunyou_mark: ["混儿悠", "混儿悠 (waits on any tile)"],
  passed_win: ["过手：打出下一张牌之前不能点炮和", "过手: you passed a win, no win on a discard until your next discard"],
  window_waiting: ["等待其他玩家回应 {0}", "Waiting for the others to answer on {0}"],
  window_yours: ["{0} 打出 {1}：吃、碰、杠、和还是过？", "{0} discarded {1}: claim it or pass"],
  rob_yours: ["{0} 加杠 {1}：抢杠吗？", "{0} adds {1} to a kong: rob it?"],
  rob_waiting: ["等待其他玩家决定是否抢杠", "Waiting for the others: rob the kong?"],
  hunyou_pick: ["混儿悠：点一张发光的牌打出，之后任何一张都和", "混儿悠: click a glowing tile to discard it; your next draw wins, whatever it is"],
  hunyou_tip: ["混儿悠：打出这张，下一张摸什么都和（无混儿）", "混儿悠: discard this and win on any next draw (scored as no wild)"],
  settlement: ["结算", "Settlement"],
  winner_is: ["{0} 自摸和了", "{0} wins (self-drawn)"],
  drawn_hand: ["荒牌：没有人和", "Drawn hand: nobody won"],
  elements: ["番型", "Elements"],
  payments: ["支付", "Payments"],
  reason_win: ["和牌", "win"],
  reason_kong: ["杠", "kong"],
  reason_chan: ["铲", "chan (铲)"],
  reason_penalty: ["打混罚", "wild discard"],
  reason_shaozhuang: ["烧庄", "烧庄"],
  win_discard: ["{0} 和了，{1} 点炮", "{0} wins on {1}'s discard (点炮)"],
  win_rob: ["{0} 抢杠和，{1} 的杠", "{0} wins robbing {1}'s kong (抢杠)"],
  win_hunyou: ["{0} 混儿悠成功，自摸和了", "{0}'s 混儿悠 draw wins (self-drawn)"],
  win_hungang: ["{0} 混杠和了", "{0} wins with 混杠 (four wilds)"],
  value_n: ["{0} 点", "value {0}"],
  value_how: ["点数怎么算", "How the value is made"],
  value_column_b: ["北京 B：番数相乘", "version B: the multipliers multiply"],
  value_column_a: ["北京 A：番数相加，未门清减半", "version A: the fan add up, halved for an open hand"],
  last_tile: ["海底捞月", "last tile"],
  why_value: ["点数 {0}", "value {0}"],
  why_base: ["底分 ×{0}", "base ×{0}"],
  why_upstairs: ["上楼 ×{0}", "上楼 ×{0}"],
  why_dianpao: ["点炮 ×{0}", "点炮 (dealt in) ×{0}"],
  why_discarder: ["包三家 ×{0}", "包三家 (the discarder pays for all three) ×{0}"],
  why_rob_kong: ["抢杠包三家 ×{0}", "抢杠: the kong's owner pays all three ×{0}"],
  why_mutual: ["互包：全包 {0} 份", "互包: tied, pays all {0} shares"],
  why_hunyou: ["混儿悠被截 ×{0}", "混儿悠 cut short ×{0}"],
  why_shaozhuang: ["烧庄 {0}", "烧庄 {0}"],
  why_shaozhuang_rounds: ["连烧 ×{0}", "烧庄 again ×{0}"],
  settle_upstairs: ["本局上楼：每笔支付 ×2", "上楼 this hand: every payment ×2"],
  settle_upstairs_next: ["荒牌：上楼，之后的支付加倍", "Drawn: 上楼, payments double from the next hand"],
  settle_shaozhuang: ["烧庄 {0} 轮：庄家付给每家", "烧庄 ({0} round(s)): the dealer pays each other player"],
  pays: ["付给", "pays"],
  deltas: ["本局输赢", "This hand"],
  scores: ["总分", "Scores"],
  next_hand: ["下一局", "Next hand"],
  auto_next: ["{0} 秒后自动继续", "continues in {0} s"],
  match_over: ["终局", "Final standings"],
  rank: ["名次", "Rank"],
  back_lobby: ["回大厅", "Back to the lobby"],
  replay_match: ["回放", "Replay"],
  download: ["下载记录", "Download record"],
  kong_draw: ["杠开", "on a kong replacement"],
  tianhu: ["天胡", "heavenly hand"],
  chan: ["铲", "chan (铲)"],
  status_playing: ["进行中", "playing"],
  status_finished: ["已结束", "finished"],
  status_abandoned: ["已放弃", "abandoned"],
  status_waiting: ["等待中", "waiting"],
  status_over: ["已结束", "over"],
  status_error: ["出错", "error"],
  players: ["玩家", "Players"],
  result: ["结果", "Result"],
  date: ["时间", "Date"],
  hands: ["局数", "Hands"],
  no_matches: ["还没有对局", "No matches yet"],
  older: ["更早", "Older"],
  newer: ["更新", "Newer"],
  replay: ["回放", "Replay"],
  step: ["第 {0} / {1} 步", "step {0} of {1}"],
  first: ["开始", "start"],
  prev_hand: ["上一局", "previous hand"],
  back: ["后退", "back"],
  forward: ["前进", "forward"],
  next_hand_short: ["下一局", "next hand"],
  end: ["结束", "end"],
  play: ["播放", "play"],
  pause: ["暂停", "pause"],
  connecting: ["连接中…", "connecting…"],
  connected: ["已连接", "connected"],
  disconnected: ["断开了，正在重连…", "disconnected, reconnecting…"],
  log: ["记录", "Log"],
  ev_discard: ["{0} 打 {1}", "{0} discards {1}"],
  ev_draw: ["{0} 摸牌", "{0} draws"],
  ev_draw_own: ["你摸到 {0}", "you draw {0}"],
  ev_draw_tile: ["{0} 摸 {1}", "{0} draws {1}"],
  ev_pon: ["{0} 碰 {1}", "{0} pons {1}"],
  ev_kong: ["{0} 杠 {1}", "{0} kongs {1}"],
  ev_ankong: ["{0} 暗杠", "{0} declares a concealed kong"],
  ev_gold: ["{0} 金杠 {1}", "{0} declares a gold kong of {1}"],
  ev_kakan: ["{0} 加杠 {1}", "{0} adds {1} to a pon"],
  ev_chan: ["铲！庄家付钱", "铲 (chan)! the dealer pays"],
  ev_win: ["{0} 和了：{1}，{2} 番", "{0} wins: {1}, {2} fan"],
  ev_win_value: ["{0} 和了：{1}，{2} 点", "{0} wins: {1}, value {2}"],
  ev_chi: ["{0} 吃 {1}", "{0} chis {1}"],
  ev_hunyou: ["{0} 混儿悠，打 {1}", "{0} declares 混儿悠, discards {1}"],
  ev_shaozhuang: ["烧庄！庄家付钱", "烧庄! the dealer pays"],
  value_short: ["{0}点", "v{0}"],
  ev_drawn: ["荒牌", "drawn hand"],
  ev_deal: ["第 {0} 局开始，庄家 {1}", "hand {0} begins, dealer {1}"],
  ev_end: ["终局", "end of the match"],
  timeout_note: ["超时由机器人代打", "on time-out the bot plays for you"],
  tiles_n: ["{0} 张", "{0} tiles"],
  spectating: ["观战中", "watching"],
  all_hands: ["所有手牌可见", "all hands shown"],
  not_found: ["找不到", "Not found"],
  error: ["错误", "Error"],
};

const KEY = "tjmj.lang";

// "?lang=zh" or "?lang=en" in a link sets the language
const wanted = new URLSearchParams(location.search).get("lang");
if (wanted === "zh" || wanted === "en") localStorage.setItem(KEY, wanted);

export function lang() {
  const saved = localStorage.getItem(KEY);
  if (saved === "zh" || saved === "en") return saved;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function setLang(l) {
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
}

export function t(key, ...args) {
  const pair = STRINGS[key];
  let s = pair ? pair[lang() === "zh" ? 0 : 1] : key;
  args.forEach((a, i) => { s = s.replaceAll(`{${i}}`, String(a)); });
  return s;
}

// Fill every element with data-i18n="key" (text) or data-i18n-placeholder="key".
export function applyI18n(root = document) {
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
}

// A button that switches the language and calls onChange (to re-render).
export function langToggle(button, onChange) {
  const label = () => { button.textContent = lang() === "zh" ? "English" : "中文"; };
  label();
  button.addEventListener("click", () => {
    setLang(lang() === "zh" ? "en" : "zh");
    label();
    applyI18n();
    if (onChange) onChange();
  });
}
