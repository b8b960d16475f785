/** Great-circle geometry on a spherical Earth: plenty for schedules and fares. */

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** IUGG mean Earth radius. */
const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/**
 * Great-circle distance in kilometres between two points (haversine formula, which stays
 * accurate for short distances, unlike the spherical law of cosines).
 */
export function greatCircleKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The eastward share of the initial heading from `a` to `b`: +1 due east, -1 due west, 0 due
 * north or south. Used to model the prevailing westerly jet stream.
 */
export function eastwardComponent(a: GeoPoint, b: GeoPoint): number {
  const lat1 = a.latitude * RADIANS;
  const lat2 = b.latitude * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const east = Math.sin(dLon) * Math.cos(lat2);
  const north = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  const length = Math.hypot(east, north);
  return length === 0 ? 0 : east / length;
}
