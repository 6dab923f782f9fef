// Sluice runtime machinery: the contract.
//
// # Sluice runtime machinery — the contract
//
// Everything in this folder is shared by Sluice's publishers and operators. Nothing here is public API
// (a few `_`-prefixed types are public only so that `@inlinable` code in user modules can see them).
//
// ## Locks (`Lock.swift`)
// `Lock` is one atomic word stored inline (no allocation). Rule: a lock is held only to read or change
// state, never while calling into another stage. Two locks are held while calling out, and both may be
// re-taken by their holder:
// - `ReentrantLock` (two inline atomic words) serialises one subject subscriber's deliveries, so that a
//   subscriber may send into the subject it listens to. Only deliveries to that subscriber wait for
//   it: `request` and `cancel` do not (except the request that hands a `CurrentValueSubject`
//   subscriber its owed current value, which is a delivery, as in Combine).
// - `RecursiveLock` (a pthread recursive mutex) guards `multicast`'s creation of its subject.
// `Lock` and `ReentrantLock` put a release fence before their unlocking store, so the ARC optimizer
// cannot move a retain of guarded state past it (see `Lock.unlock()`).
//
// ## Demand (`DemandCounter.swift`)
// Outstanding demand is one atomic word: `UInt.max` means unlimited and is sticky; any other value is a
// finite count. `add` saturates into unlimited. Only the thread that moves the word from 0 to non-zero
// owns the drain loop (see below); every other `request` just adds and returns. A `request` from inside
// `receive` is therefore bounded: it adds demand that the running loop picks up.
//
// ## Fusion (`Fusion.swift`, `FusedSubscription.swift`)
// A *fusable* publisher can produce its elements synchronously, one at a time, on demand: `Just`,
// `Publishers.Sequence`, `Optional.Publisher`, `Result.Publisher`, `Fail`, `Record`, and stateless or simply
// stateful stages over a fusable upstream (`map`, `filter`, `compactMap`, `tryMap`, `scan`, ...). Such a
// publisher reports `_isFusable == true` and builds a `_Runtime.FusedCursor`: a value that advances the whole chain by
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
// A run of stage operators is subscribed as one object, top-down: each stage operator puts its stage under the
// run above it (`_Runtime.ComposedStage`) and passes the call on (`_subscribeThrough`); the first publisher that is
// not a stage operator subscribes the run. A fusable one gives it one `FusedSubscription` over its own cursor
// with the run on top; any other one `StageSubscription`, so `subject.map.filter.map` subscribes a single
// subscription. The walk is `@inline(__always)`: the stage type grows at each level, which the generic
// specialiser would take for an endless recursion, so it is left to the inliner, and collapses into the
// caller at any length. `Empty` is not fusable: whether it completes is a stored value, not a static fact.
//
// `FusedSubscription` drives a cursor for any subscriber: atomic demand, a drain loop that settles demand
// once per batch, and with unlimited demand no demand traffic per element. `Subscribers.Sink` is driven
// inline in `sink(...)`: the loop is compiled into the caller, where the stage closures are known and inline.
//
// The inline `sink`, the folds and `assign` run a chain through `Publisher._forEach` rather than a cursor: by
// continuation passing. A source runs its own loop (`Publishers.Sequence` peeks one element ahead, as its
// cursor does, except over an array or an integer range, where nobody can tell, and a plain loop over the
// storage is faster); every stage operator hands its upstream a body that applies its stage, calls the next
// body and answers whether to go on (false once a stage or the consumer has ended the stream: the loop stops
// and sends nothing more); every other publisher drives its cursor (the default). No value then holds the
// whole chain, so nothing the optimizer must forward through memory is larger than a closure: Swift 6.3.1's
// SIL optimizer forwards an aggregate of at most six leaf fields, and a cursor of more than about six stages
// was past it, each stage then an indirect call. For the same reason every stage operator with a closure keeps
// its upstream and closures in one stored closure (`_parts`), so the publisher is two words however long the
// chain under it. So neither `sink` nor a general subscriber builds a cursor of stage cursors for a chain of
// stage operators: the type-checker's and the optimizer's time on such nested types grew steeply with the
// chain's length (24 stages did not compile in 5 minutes).
//
// Compile time is a feature (`scripts/compile-time`, in CI: 32 and 64 stages in generic code). Two rules keep
// it linear. No stage operator has an associated type that nests the chain besides `_Cursor` (the run of
// stages is composed top-down instead, above). And `_Runtime.FusedCursor.Failure` is not constrained to `Error`: the
// publisher's `Failure` already is, and is the same type, so a second path to that conformance through each
// level's cursor made the compiler's conformance substitution exponential in the chain's length (SILGen of a
// 24-stage chain in a generic function: more than 60 s; with one path, 32 stages take 0.26 s). Code that needs
// `Subscribers.Completion<Cursor.Failure>` asks for `Cursor.Failure: Error` where it is declared.

/// The fast runtime's public machinery: the types that Sluice's `@inlinable` code names in user
/// modules (cursors, stages, folds, the introspection record), and nothing a user calls. Its
/// contract is the comment above.
@_documentation(visibility: internal)
public enum _Runtime {}

// ## Lifetimes (`Lifetimes.swift`)
// A subscription lets go of its subscriber, its operator's closures and its upstream subscription at
// the end of its stream (a cancel, the completion, a failure), not when the last reference to it goes:
// a subscriber that keeps its subscription must not keep itself alive through it. What it holds lives
// in `Releasable` fields, reached in place through `with` (no retain per call). Who releases them, and
// when, is decided by one of three means, never by waiting for a call to return:
// - a `Lifetime` (an `EndGate` and a specialised release): every call that uses the fields is a
//   `lifetime.call`; the end is `lifetime.end()`; the last call out, or the cancel when none runs,
//   releases. Most subscriptions.
// - the subject conduit's delivery lock (`ReentrantLock.requestRelease()`): the delivery that holds
//   the lock when the subscription ends releases as it unlocks.
// - the demand word of `FusedSubscription`: whoever holds it (the drain owner, or a cancel that takes
//   it from 0 for good) releases.
// `sink(...)` keeps its closures in a subscriber that only upstream holds (`SinkSubscriber`); the
// returned token holds the subscription (`SinkLink`), so upstream letting go is what frees them.
// Releases run outside locks: a deinit may re-enter.
//
// ## Specialisation
// Calls that arrive through an existential (`any Subscription`) or a class vtable run the unspecialised
// body of a generic method. The hot entry points that arrive that way — the fused drain (`request`), a
// subject's delivery to one subscriber, type erasure — are closures made where the subscription is built
// (in the user's module, with concrete types), so the loop they enter is specialised. The small
// `receive(subscriber:)` / `subscribe` functions are `@inline(__always)`, so that a chain's subscribe
// calls collapse into the caller and nested operator types are specialised there.
//
// ## Exclusivity
// Class state on hot paths is `@exclusivity(unchecked)`: it is guarded by a lock or by Combine's serial
// signals, and dynamic exclusivity checks cost half of a subject send.
