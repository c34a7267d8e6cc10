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

// `THH:MM:SS+01:00` for every second of the day, per UTC offset, written once when first needed.
const timesOfDay = new Map<string, (string | undefined)[]>();

export function timeOfDayTable(utcOffset: string): (string | undefined)[] {
  let table = timesOfDay.get(utcOffset);
  if (table === undefined) {
    table = new Array<string | undefined>(86_400);
    timesOfDay.set(utcOffset, table);
  }
  return table;
}

export function timeOfDay(table: (string | undefined)[], minute: number, second: number, utcOffset: string): string {
  const at = minute * 60 + second;
  let text = table[at];
  if (text === undefined) {
    text = `T${pad2(floor(minute / 60))}:${pad2(minute % 60)}:${pad2(second)}${utcOffset}`;
    table[at] = text;
  }
  return text;
}
