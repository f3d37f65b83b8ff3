/// A request's notification `userInfo`, kept in its state between notifications.
///
/// `@unchecked Sendable`: the dictionary is never changed after it is made, and holds only a
/// `String` key and the `Request` (or, in the template the others are copied from, an `Int`),
/// all `Sendable`; `[AnyHashable: Any]` cannot say so itself.
struct NotificationUserInfo: @unchecked Sendable { // immutable once made; holds a String key and a Sendable Request or Int
    let userInfo: [AnyHashable: Any]
}
