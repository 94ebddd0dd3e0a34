export interface UptimeParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Split a number of seconds into days, hours, minutes and seconds. */
export function splitUptime(totalSeconds: number): UptimeParts {
  const total = Math.max(0, Math.floor(totalSeconds));
  return {
    days: Math.floor(total / 86400),
    hours: Math.floor((total % 86400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}
