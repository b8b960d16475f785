import { derivedId } from "../../../ids";

/** Where a seat service id says its seat is: the segment and passenger by position in the subject, and the seat. */
export interface SeatServiceName {
  segmentIndex: number;
  passengerIndex: number;
  designator: string;
}

/** Positions are written as one base-36 digit: an offer has at most 4 slices of 3 segments, and 9 passengers. */
const MAX_INDEX = 35;
const SEAT_SERVICE_ID = /^ase_[0-9a-f]{24}([0-9a-z])([0-9a-z])([0-9]{1,3}[a-z])$/;

/**
 * The id of one seat for one passenger on one segment of a map's subject (an offer, or a booked
 * order): a digest of the subject, passenger, segment and seat, then the segment's and the
 * passenger's positions and the designator in the clear. A booking reads the seat from the id
 * instead of deriving the subject's whole map, and deriving the digest again tells an id from
 * this subject's maps from one of another subject, passenger or seat.
 */
export function seatServiceId(subjectId: string, segment: { index: number; id: string }, passenger: { index: number; id: string }, designator: string): string {
  if (segment.index > MAX_INDEX || passenger.index > MAX_INDEX) throw new Error(`seat service of segment ${segment.index}, passenger ${passenger.index}: past one digit`);
  const digest = derivedId("ase", subjectId, "seat", passenger.id, segment.id, designator);
  return `${digest}${segment.index.toString(36)}${passenger.index.toString(36)}${designator.toLowerCase()}`;
}

/** What an id of the shape `seatServiceId` makes says; undefined for any other text. Whether it is genuine is for the caller to derive. */
export function readSeatServiceId(id: string): SeatServiceName | undefined {
  const match = SEAT_SERVICE_ID.exec(id);
  if (!match) return undefined;
  return { segmentIndex: parseInt(match[1]!, 36), passengerIndex: parseInt(match[2]!, 36), designator: match[3]!.toUpperCase() };
}
