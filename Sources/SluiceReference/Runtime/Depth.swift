/// How deep Sluice's own recursion may go on one thread before it turns into a loop.
///
/// A subscriber that sends into the subject it listens to re-enters the subject's delivery from
/// inside `receive`, as in Combine: the new value is delivered before `send` returns. Up to this
/// many deliveries nest; a value sent from inside the deepest waits, and the delivery one level up
/// delivers it as soon as its `receive` returns. So a send 10,000 deep keeps a bounded stack (in
/// debug builds too, and on a 512 KiB thread) while shallow re-entrance keeps Combine's order.
@usableFromInline let nestedDeliveryLimit = 32
