/**
 * A fetch-based network client for MSAL that remembers the refresh token of the last token
 * response. MSAL keeps refresh tokens private by design; the pane renews on its own (the dialog
 * is gone by then), so the dialog reads it here, through MSAL's documented `networkClient` option.
 */

export interface NetworkResponse<T> {
  headers: Record<string, string>;
  body: T;
  status: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string;
}

export interface CapturingNetworkClient {
  sendGetRequestAsync<T>(url: string, options?: RequestOptions): Promise<NetworkResponse<T>>;
  sendPostRequestAsync<T>(url: string, options?: RequestOptions): Promise<NetworkResponse<T>>;
  /** The refresh token of the last successful token response, if any (read once, then forgotten). */
  takeRefreshToken(): string | undefined;
}

export function createCapturingNetworkClient(fetchFn: typeof fetch = (input, init) => fetch(input, init)): CapturingNetworkClient {
  let refreshToken: string | undefined;

  const send = async <T>(method: "GET" | "POST", url: string, options?: RequestOptions): Promise<NetworkResponse<T>> => {
    const response = await fetchFn(url, {
      method,
      headers: options?.headers ?? {},
      ...(method === "POST" ? { body: options?.body ?? "" } : {}),
      credentials: "omit",
      cache: "no-store",
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = (await response.json()) as T;
    if (method === "POST" && response.ok && typeof body === "object" && body !== null) {
      const token = (body as Record<string, unknown>)["refresh_token"];
      if (typeof token === "string" && token !== "") refreshToken = token;
    }
    return { headers, body, status: response.status };
  };

  return {
    sendGetRequestAsync: (url, options) => send("GET", url, options),
    sendPostRequestAsync: (url, options) => send("POST", url, options),
    takeRefreshToken() {
      const token = refreshToken;
      refreshToken = undefined;
      return token;
    },
  };
}
