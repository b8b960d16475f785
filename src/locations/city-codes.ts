/**
 * IATA metropolitan-area codes and the airports they group (docs/rest-api.md#locations). Hand-maintained,
 * because no data set shipped on npm carries them; only real IATA metro codes belong here, and
 * only airports that the airport index keeps (a unit test checks both stay in step).
 *
 * Some metro codes are also the code of one of their airports (BKK, SHA, IST, …): such a code
 * names the airport when used as a code, but still groups its sister airports for search.
 */
export const METROPOLITAN_AIRPORTS: Readonly<Record<string, readonly string[]>> = {
  BAK: ["GYD"],
  BHZ: ["CNF"],
  BJS: ["PEK", "PKX"],
  BKK: ["BKK", "DMK"],
  BRU: ["BRU", "CRL"],
  BUE: ["EZE", "AEP"],
  BUH: ["OTP", "BBU"],
  CHI: ["ORD", "MDW"],
  DFW: ["DFW", "DAL"],
  DTT: ["DTW"],
  DXB: ["DXB", "DWC"],
  HOU: ["IAH", "HOU"],
  IST: ["IST", "SAW"],
  JKT: ["CGK", "HLP"],
  JNB: ["JNB", "HLA"],
  KUL: ["KUL", "SZB"],
  LON: ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"],
  MEL: ["MEL", "AVV"],
  MEX: ["MEX", "NLU"],
  MIL: ["MXP", "LIN", "BGY"],
  MOW: ["SVO", "DME", "VKO", "ZIA"],
  NGO: ["NGO", "NKM"],
  NYC: ["JFK", "EWR", "LGA"],
  ORL: ["MCO", "SFB"],
  OSA: ["KIX", "ITM", "UKB"],
  OSL: ["OSL", "TRF"],
  PAR: ["CDG", "ORY", "BVA"],
  REK: ["KEF", "RKV"],
  RIO: ["GIG", "SDU"],
  ROM: ["FCO", "CIA"],
  SAO: ["GRU", "CGH", "VCP"],
  SEL: ["ICN", "GMP"],
  SHA: ["SHA", "PVG"],
  SPK: ["CTS", "OKD"],
  STO: ["ARN", "BMA", "NYO", "VST"],
  TCI: ["TFN", "TFS"],
  TPE: ["TPE", "TSA"],
  TYO: ["HND", "NRT"],
  VCE: ["VCE", "TSF"],
  WAS: ["IAD", "DCA", "BWI"],
  YEA: ["YEG"],
  YMQ: ["YUL", "YHU"],
  YTO: ["YYZ", "YTZ"],
};

const METRO_CODE_BY_AIRPORT = new Map(
  Object.entries(METROPOLITAN_AIRPORTS).flatMap(([metro, airports]) =>
    airports.map((airport) => [airport, metro] as const),
  ),
);

/** The metropolitan code grouping this airport (LHR → LON), or undefined if it has none. */
export function metroCodeOf(airportIataCode: string): string | undefined {
  return METRO_CODE_BY_AIRPORT.get(airportIataCode);
}
