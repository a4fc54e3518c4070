const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface BBox {
  readonly minLat: number;
  readonly maxLat: number;
  readonly minLng: number;
  readonly maxLng: number;
}

/**
 * `minLat,maxLat,minLng,maxLng` or undefined when malformed (an invalid value is
 * silently not applied). minLng > maxLng is a box across the antimeridian.
 */
export function parseBBox(text: string): BBox | undefined {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return undefined;
  const [minLat, maxLat, minLng, maxLng] = parts as [number, number, number, number];
  if (
    minLat > maxLat ||
    minLat < -90 ||
    maxLat > 90 ||
    Math.abs(minLng) > 180 ||
    Math.abs(maxLng) > 180
  ) {
    return undefined;
  }
  return { minLat, maxLat, minLng, maxLng };
}

export function inBBox(box: BBox, lat: number, lng: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.minLng <= box.maxLng
    ? lng >= box.minLng && lng <= box.maxLng
    : lng >= box.minLng || lng <= box.maxLng;
}
