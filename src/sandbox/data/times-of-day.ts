/** Times of day with a desk's UTC offset: the instant of a local second, and the `THH:MM:SS+01:00` texts, written once. */

const { floor } = Math;

/** `+05:30` as seconds east of UTC. */
export function offsetSeconds(utcOffset: string): number {
  const sign = utcOffset.startsWith("-") ? -1 : 1;
  return sign * (Number(utcOffset.slice(1, 3)) * 3600 + Number(utcOffset.slice(4, 6)) * 60);
}

/** The instant (ms) at `second` of the day `day` (epoch day) in a desk's UTC offset. */
export function instantOf(day: number, second: number, utcOffset: string): number {
  return (day * 86_400 + second - offsetSeconds(utcOffset)) * 1000;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

/** An offset's `THH:MM:SS+01:00` texts by second of the day, each written once when first needed. */
export type TimesOfDay = Map<number, string>;

// Per UTC offset: a map, not an array of every second of the day (86,400 slots allocated for the few hundred seconds
// a desk publishes at).
const timesOfDay = new Map<string, TimesOfDay>();

export function timeOfDayTable(utcOffset: string): TimesOfDay {
  let table = timesOfDay.get(utcOffset);
  if (table === undefined) {
    table = new Map<number, string>();
    timesOfDay.set(utcOffset, table);
  }
  return table;
}

export function timeOfDay(table: TimesOfDay, minute: number, second: number, utcOffset: string): string {
  const at = minute * 60 + second;
  let text = table.get(at);
  if (text === undefined) {
    text = `T${pad2(floor(minute / 60))}:${pad2(minute % 60)}:${pad2(second)}${utcOffset}`;
    table.set(at, text);
  }
  return text;
}
