/**
 * Node 20 lacks `Promise.withResolvers` (Node 22+), which nock 15's interceptor (@mswjs/interceptors)
 * calls when it intercepts `fetch` (Octokit's transport). Import this module first in tests that use nock.
 */
type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
};

const promiseCtor: PromiseConstructor & { withResolvers?: WithResolvers } = Promise;
if (typeof promiseCtor.withResolvers !== "function") {
  promiseCtor.withResolvers = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
