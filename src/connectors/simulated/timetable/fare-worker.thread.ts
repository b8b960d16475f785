import { parentPort } from "node:worker_threads";
import { airportIndex } from "../../../locations/airport-index";
import type { Airport } from "../../../locations/airport";
import type { CarrierProfile } from "./carriers";
import type { FareAnswerMessage, FareRequestMessage, FareTask } from "./fare-tasks";
import { SimulatedTimetable } from "./simulated-timetable";

/**
 * The fare worker's thread (started by fare-worker.ts through fare-worker.thread.mjs): answers the
 * simulated airline's fare questions from timetables of its own. A timetable is a pure function
 * of its carriers and the airports, so this one answers exactly as the airline's own would, while
 * the server's event loop goes on serving requests.
 */
const airports = airportIndex();
const timetables = new Map<string, SimulatedTimetable>();

function timetableOf(carriers: readonly CarrierProfile[]): SimulatedTimetable {
  const key = carriers.map((carrier) => carrier.iataCode).join(",");
  let timetable = timetables.get(key);
  if (!timetable) {
    timetable = new SimulatedTimetable({ airportByIata: (code) => airports.getByIata(code), carriers });
    timetables.set(key, timetable);
  }
  return timetable;
}

const airportsOf = (codes: readonly string[]): Airport[] => codes.map((code) => airports.getByIata(code)).filter((airport) => airport !== undefined);

async function answer(task: FareTask) {
  const timetable = timetableOf(task.carriers);
  if (task.kind === "lowestFares") {
    const slices = task.search.slices.map((slice) => ({ origins: airportsOf(slice.origins), destinations: airportsOf(slice.destinations), departureDate: slice.departureDate }));
    return timetable.lowestFares({ ...task.search, slices }, task.limit);
  }
  return timetable.nonstopFaresTo(airportsOf(task.origins), airportsOf(task.destinations), task.days, task.cabinClass, task.limit);
}

parentPort!.on("message", ({ id, task }: FareRequestMessage) => {
  answer(task).then(
    (fares) => parentPort!.postMessage({ id, answer: fares } satisfies FareAnswerMessage),
    (error: unknown) => parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies FareAnswerMessage),
  );
});
