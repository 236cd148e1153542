// Short sounds made with Web Audio (no files to load): your turn, a claim window, a discard, a
// claim, a win. Muted by the table's toggle; browsers start audio only after a user gesture, so
// the context is created on the first click or key press.

const NOTES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]], // rising: your turn
  ask: [[880, 0, 0.08], [880, 0.12, 0.08]], // two beeps: a claim window asks you
  discard: [[220, 0, 0.05]], // a click
  claim: [[523, 0, 0.08], [392, 0.09, 0.1]], // a claim (碰/吃/杠)
  win: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]], // an arpeggio
};

class Sound {
  constructor() {
    this.muted = false;
    this.ctx = null;
    const unlock = () => {
      if (!this.ctx && (window.AudioContext || window.webkitAudioContext)) {
        try { this.ctx = new (window.AudioContext || window.webkitAudioContext)(); } catch { this.ctx = null; }
      }
      if (this.ctx && this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    };
    window.addEventListener("pointerdown", unlock, { capture: true });
    window.addEventListener("keydown", unlock, { capture: true });
  }

  play(name) {
    if (this.muted || !this.ctx || this.ctx.state !== "running") return;
    const notes = NOTES[name];
    if (!notes) return;
    const now = this.ctx.currentTime;
    for (const [freq, at, len] of notes) {
      const osc = this.ctx.createOscillator();
      const gain = this.ctx.createGain();
      osc.type = name === "discard" ? "triangle" : "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(this.ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  }
}

export const sound = new Sound();
