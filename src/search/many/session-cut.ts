// history_sessions' ranking under the score-bound cut (score-cut.ts). A session scores
// sessionScore(content, title, B) (rank-sessions.ts): content the weighted sum of its three best
// message scores, title its title's coverage of the query (known from the listing, read or not),
// B the best message score of the whole scope. A session left unread holds no message above its
// bound, so its content is at most W·bound (W the weights' sum) and it scores at most
// W·bound·(1 + titleRaise·title) + title·titleShare·B. Once the best message read beats the bound
// of every session not read (those in flight included), B is final; the sessions from a position of
// the order on are then excluded when the most they can score (maxima over that suffix) is
// beaten by the limit-th score of the sessions ranked now: those read, and the titled ones that
// hold no query word (content 0).

import type { SessionInfo } from "../../history/types.ts";
import { insertBest } from "../../util/best.ts";
import type { ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import type { BoundedSession, CutRanking } from "./score-cut.ts";
import type { Candidates } from "../rank/candidates.ts";
import { beatenBy } from "../rank/rank.ts";
import { sessionScore, titleCoverage } from "../rank/rank-sessions.ts";

export class SessionCutRanking implements CutRanking {
  /** Title coverage of every session of the scope whose title holds a query word. */
  private readonly titles = new Map<string, number>();
  /** Content score of each session read. */
  private readonly contents = new Map<string, number>();
  /** The best message score read. */
  private best = 0;
  private readonly position = new Map<string, number>();
  private added: boolean[] = [];
  /** Positions of the order before it are all read. */
  private readUpTo = 0;
  private ordered: readonly BoundedSession[] = [];
  /** Per position, the most over the order from there on: bound, W·bound·(1 + titleRaise·title), title. */
  private suffix = { bound: [] as number[], raised: [] as number[], title: [] as number[] };

  constructor(
    scope: readonly SessionInfo[],
    parsed: ParsedQuery,
    private readonly limit: number,
  ) {
    for (const session of scope) {
      const title = titleCoverage(session.title, parsed);
      if (title > 0) this.titles.set(session.id, title);
    }
  }

  /** By the most each can score, with B at the most it can be. */
  order(bounded: BoundedSession[]): BoundedSession[] {
    const { titleRaise, titleShare } = TUNING.sessions;
    const weights = contentWeightSum();
    const highest = bounded.reduce((most, { bound }) => Math.max(most, bound), this.best);
    const raised = (entry: BoundedSession) => weights * entry.bound * (1 + titleRaise * this.title(entry.session.id));
    const most = new Map(bounded.map((entry) => [entry, raised(entry) + this.title(entry.session.id) * titleShare * highest]));
    const ordered = bounded.sort((a, b) => most.get(b)! - most.get(a)!);
    const n = ordered.length;
    this.suffix = { bound: new Array(n + 1).fill(0), raised: new Array(n + 1).fill(0), title: new Array(n + 1).fill(0) };
    for (let i = n - 1; i >= 0; i--) {
      const entry = ordered[i]!;
      this.suffix.bound[i] = Math.max(this.suffix.bound[i + 1]!, entry.bound);
      this.suffix.raised[i] = Math.max(this.suffix.raised[i + 1]!, raised(entry));
      this.suffix.title[i] = Math.max(this.suffix.title[i + 1]!, this.title(entry.session.id));
      this.position.set(entry.session.id, i);
    }
    this.ordered = ordered;
    this.added = new Array(n).fill(false);
    return ordered;
  }

  /** Its three best are boosted here. */
  add(session: SessionInfo, candidates: Candidates): void {
    const top = candidates.top(TUNING.sessions.contentWeights.length);
    let content = 0;
    top.forEach((group, i) => {
      content += group.score * TUNING.sessions.contentWeights[i]!;
    });
    this.contents.set(session.id, content);
    this.best = Math.max(this.best, top[0]?.score ?? 0);
    const at = this.position.get(session.id);
    if (at === undefined) return;
    this.added[at] = true;
    while (this.added[this.readUpTo]) this.readUpTo++;
  }

  excludes(from: number): boolean {
    if (from >= this.added.length) return true;
    // B is final once no session left unread (those in flight before `from` included) holds a
    // message that can pass the best read: a higher B would raise every titled session's score.
    let unread = this.suffix.bound[from]!;
    for (let i = this.readUpTo; i < from; i++) if (!this.added[i]) unread = Math.max(unread, this.ordered[i]!.bound);
    if (!beatenBy(unread, this.best)) return false;
    const best = this.best;
    const scores: number[] = [];
    const keep = (content: number, title: number) => {
      if (content > 0 || title > 0) insertBest(scores, sessionScore(content, title, best), this.limit, (a, b) => b - a);
    };
    for (const [id, content] of this.contents) keep(content, this.title(id));
    for (const [id, title] of this.titles) if (!this.contents.has(id) && !this.position.has(id)) keep(0, title);
    if (scores.length < this.limit) return false;
    const most = this.suffix.raised[from]! + this.suffix.title[from]! * TUNING.sessions.titleShare * best;
    return beatenBy(most, scores[this.limit - 1]!);
  }

  private title(id: string): number {
    return this.titles.get(id) ?? 0;
  }
}

function contentWeightSum(): number {
  return TUNING.sessions.contentWeights.reduce((sum, weight) => sum + weight, 0);
}
