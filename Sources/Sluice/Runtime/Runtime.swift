// Sluice runtime machinery: the contract.
//
// # Sluice runtime machinery — the contract
//
// Everything in this folder is shared by Sluice's publishers and operators. Nothing here is public API
// (a few `_`-prefixed types are public only so that `@inlinable` code in user modules can see them).
//
// ## Locks (`Lock.swift`)
// `Lock` is a pthread mutex; `Lock(recursive: true)` may be re-taken by its holder. Rule: a lock is held
// only to read or change state, never while calling into another stage — except the subject fan-out lock,
// which is recursive and held while delivering so that deliveries to each subscriber are serial and a
// subscriber may send into its own subject.
//
// ## Demand (`DemandCounter.swift`)
// Outstanding demand is one atomic word: `UInt.max` means unlimited and is sticky; any other value is a
// finite count. `add` saturates into unlimited. Only the thread that moves the word from 0 to non-zero
// owns the drain loop (see below); every other `request` just adds and returns. A `request` from inside
// `receive` is therefore bounded: it adds demand that the running loop picks up.
//
// ## Fusion (`Fusion.swift`, `FusedSubscription.swift`)
// A *fusable* publisher can produce its elements synchronously, one at a time, on demand: `Just`,
// `Publishers.Sequence`, `Optional.Publisher`, `Result.Publisher`, `Empty`, `Fail`, and stateless or simply
// stateful stages over a fusable upstream (`map`, `filter`, `compactMap`, `tryMap`, `scan`, ...). Such a
// publisher reports `_isFusable == true` and builds a `_FusedCursor`: a value that advances the whole chain by
// one *source* element and says what came out (a value, nothing, or a completion).
//
// Fusion is decided inside `receive(subscriber:)` (and inline in `sink`) from static types: after
// specialisation `_isFusable` is a constant, so the unfused path costs nothing when fusion applies and vice
// versa. A chain fuses from its source up to the first stage that is not fusable (`AnyPublisher`, a subject,
// a custom publisher, anything with its own scheduling); that stage subscribes to the fused part as to any
// publisher, so fusion never changes what a subscriber can observe:
// - one `receive(subscription:)`, values only against demand, completion right after the source's last
//   element (the cursor's `isExhausted` is checked after every step, as `Publishers.Sequence` peeks ahead),
// - closures called in the same order as the unfused chain (one source element runs through every stage
//   before the next is pulled),
// - nothing after a cancel: the drain loop reads the cancel flag (one relaxed load) before every element.
//
// `FusedSubscription` drives a cursor for any subscriber: atomic demand, a drain loop that settles demand
// once per batch, and with unlimited demand no demand traffic per element. `Subscribers.Sink` is driven
// inline in `sink(...)`: the loop is compiled into the caller, where the stage closures are known and inline.

/// The runtime folder's contract is the comment above; this namespace only anchors it.
enum Runtime {}
