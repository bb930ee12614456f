/**
 * Node 20 lacks `Promise.withResolvers` (Node 22+), which nock 15's interceptor (@mswjs/interceptors)
 * calls when a request is intercepted. Test-only polyfill; import it before using nock.
 */
type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

const P = Promise as unknown as { withResolvers?: WithResolvers };
if (typeof P.withResolvers !== "function") {
  P.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
