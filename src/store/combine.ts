// Joins a store's areas, each implemented on its own, into the one object the Store interface describes.

type Joined<Parts extends object[]> = Parts extends [infer Head, ...infer Tail extends object[]]
  ? Head & Joined<Tail>
  : unknown

/**
 * One object with every member of every part. A name two parts both define would let the later
 * silently replace the earlier, so it throws instead. Parts are plain objects whose methods are
 * closures: members are copied as they are, and a class instance's methods (on its prototype) would
 * be missed, so it throws on one too.
 */
export function combine<Parts extends object[]>(...parts: Parts): Joined<Parts> {
  const whole: Record<string, unknown> = {}
  for (const part of parts) {
    if (Object.getPrototypeOf(part) !== Object.prototype) throw new Error('combine takes plain objects')
    for (const [name, member] of Object.entries(part)) {
      if (Object.hasOwn(whole, name)) throw new Error(`two parts of the store define ${name}`)
      whole[name] = member
    }
  }
  return whole as Joined<Parts>
}
