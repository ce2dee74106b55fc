// A store with some of its methods replaced by a test (held, counted, told): the rest are its own.
import type { Store } from '../../src/store/store.js'

export function withMethods(store: Store, methods: Partial<Store>): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (Object.hasOwn(methods, key)) return methods[key as keyof Store]
      const value = Reflect.get(target, key, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
