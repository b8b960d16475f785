import type { CabinClass } from "../../../gateway/contract/air";

/**
 * How each aircraft type of the simulated airline seats its cabins: the seat letters of one row,
 * sections (between aisles) separated by spaces, as airlines print them (`ABC DEFG HJK` is a
 * 3-4-3 row with two aisles; letters I and sometimes J are skipped). Capacities come from the
 * aircraft type (supplier/aircraft.ts); rows are as many as the capacity needs.
 */
export interface CabinConfiguration {
  letters: string;
  /** 0 the main deck, 1 the upper deck (Duffel's numbering). */
  deck: 0 | 1;
}

type Configurations = Readonly<Partial<Record<CabinClass, CabinConfiguration>>>;

const main = (letters: string): CabinConfiguration => ({ letters, deck: 0 });
const upper = (letters: string): CabinConfiguration => ({ letters, deck: 1 });

const NARROWBODY: Configurations = { business: main("AC DF"), premium_economy: main("ABC DEF"), economy: main("ABC DEF") };

const CONFIGURATIONS: Readonly<Record<string, Configurations>> = {
  E90: { business: main("A CD"), economy: main("AC DF") },
  "32N": NARROWBODY,
  "7M8": NARROWBODY,
  "32Q": NARROWBODY,
  "789": { business: main("A EF K"), premium_economy: main("AC DEF HK"), economy: main("ABC DEF GHK") },
  "359": { business: main("A EF K"), premium_economy: main("AC DEFG HK"), economy: main("ABC DEF GHK") },
  "77W": { first: main("A EF K"), business: main("A EF K"), premium_economy: main("AC DEFG HK"), economy: main("ABC DEFG HJK") },
  // The A380 seats its premium cabins upstairs.
  "388": { first: upper("A EF K"), business: upper("A EF K"), premium_economy: main("AC DEFG HK"), economy: main("ABC DEFG HJK") },
};

/** The configuration of a cabin on an aircraft type; undefined for a type or cabin not flown. */
export function cabinConfiguration(aircraftCode: string, cabin: CabinClass): CabinConfiguration | undefined {
  return CONFIGURATIONS[aircraftCode]?.[cabin];
}
