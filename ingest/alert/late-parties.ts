// Culprits named before their own events were read. A lock timeout's or deadlock's culprit connection is described
// from the connection index when the victim's event is read, but the culprit's earlier events may come in a segment
// observed a little later (another rphost's file, a busy machine). Such a description is written again when a
// notice is built, after the group wait, from what the index knows by then (docs/alerting.md §3.1).

/** One party named in an example field (a culprit, a deadlock holder). */
export interface Party {
  text: string;
  /** Set while the text lacks the party's user: its description now, or undefined while the user is still unknown. */
  describe?: () => string | undefined;
}

/** The parties of one example field; the tally of the same name counts their texts (alert-groups.ts). */
export interface LateParties {
  /** The example field, and the tally, that hold the parties' texts (joined by '; ' in the example). */
  field: string;
  parties: Party[];
}

/** The parties' texts, joined as the example field holds them. */
export const partiesText = (parties: Party[]): string => parties.map((p) => p.text).join('; ');

/** The late parties of a field, or undefined when every party was described in full. */
export function lateParties(field: string, parties: Party[]): LateParties | undefined {
  return parties.some((p) => p.describe !== undefined) ? { field, parties } : undefined;
}

/**
 * Describes again the parties whose user is known by now, moving their counts in `tally` to the new text.
 * Returns the field's new value, or undefined when nothing changed. A completed party is not asked again.
 */
export function completeParties(late: LateParties, tally: Map<string, number> | undefined): string | undefined {
  let changed = false;
  for (const p of late.parties) {
    const text = p.describe?.();
    if (text === undefined) continue;
    delete p.describe;
    const n = tally?.get(p.text);
    if (tally && n !== undefined) {
      tally.delete(p.text);
      tally.set(text, (tally.get(text) ?? 0) + n);
    }
    p.text = text;
    changed = true;
  }
  return changed ? partiesText(late.parties) : undefined;
}

/** True while some party still waits for its user. */
export const isLate = (late: LateParties): boolean => late.parties.some((p) => p.describe !== undefined);
