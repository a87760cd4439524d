// The yearly cost of a plan (docs/yearly-cost.md): the usage-level estimate (./usage-level) and the
// shopper's own year with their drugs and doctors as a range (./my-year), with the prices it assumes
// (./assumptions) and why a plan ranks where it does (./ranking).

export * from "./usage-level";
