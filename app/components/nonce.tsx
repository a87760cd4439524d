import { createContext, useContext } from "react";

/** The per-request CSP nonce, provided by entry.server for inline scripts. */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
