// The federated container (remoteEntry.js) is this package's real entry; this one only keeps
// rspack's required `main` entry trivial.
export {};
