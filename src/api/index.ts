export * from "./vocabulary";
export * from "./dates";
export * from "./schemas";
export * from "./requests";
export * from "./conversion";
