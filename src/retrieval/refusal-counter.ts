// A client session's consecutive gate refusals (locate, search): the gatekeeper counts them and lets
// the next try through at the limit. Its own module, so a new session does not load the gatekeeper.
export interface RefusalCounter {
  refusals: number;
}

export function createRefusalCounter(): RefusalCounter {
  return { refusals: 0 };
}
