// A `Mutex` ThreadSanitizer can see, for TSan builds only (`SALVO_TSAN=1`, which makes
// Package.swift define SALVO_TSAN_LOCKS; see Scripts/tsan.sh). Without that flag this
// file is empty and every `Mutex` in Salvo is `Synchronization.Mutex`.
//
// Why: on Linux, `Synchronization.Mutex` takes its fast path with atomics inlined into our
// code, but a contended lock goes through `_lockSlow`/`_unlockSlow` in the uninstrumented
// libswiftSynchronization.so, i.e. `futex(FUTEX_LOCK_PI/FUTEX_UNLOCK_PI)`, where the kernel
// hands ownership to the waiter without any user-space atomic. TSan sees no acquire on that
// hand-over, so every access inside a contended `withLock` is reported as a race. TSan
// intercepts `pthread_mutex_*`, so this type gives it the happens-before edges it needs.
//
// Declared in the module, it shadows the imported `Synchronization.Mutex` at every call
// site in Salvo. It is `package`, not `internal`, so that the test targets (and salvo-bench, which
// is harmless), which import Synchronization themselves, see it too. There both types are
// visible, and `Mutex(x)` / `Mutex<T>(x)` picks this one only because its `Value` must be
// Copyable: its `init` is then more specialized than `Synchronization.Mutex.init` (whose
// `Value` may be ~Copyable); identical signatures would be ambiguous. Every `Mutex` in the
// package holds a Copyable value. A `Mutex` in a *type* position in a test file
// (`let m: Mutex<Int>`) would be ambiguous under SALVO_TSAN_LOCKS; there is none today. Test
// files that do not import Salvo (Support/Supervisor.swift, Support/TestServers.swift) keep
// `Synchronization.Mutex`. Same API as the part of `Synchronization.Mutex` the package
// uses: `init(_:)` and `withLock`, plus `withLockIfAvailable` for completeness.
#if SALVO_TSAN_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@usableFromInline
package struct Mutex<Value>: ~Copyable {
    // Both on the heap, so their addresses never change while the struct is moved.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    @usableFromInline
    package init(_ initialValue: consuming sending Value) {
        lock = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        // Relocking from the owning thread fails loudly, as Synchronization.Mutex does,
        // instead of deadlocking.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let status = pthread_mutex_init(lock, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    @usableFromInline
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let status = pthread_mutex_lock(lock)
        precondition(status == 0, "Mutex.withLock: pthread_mutex_lock failed (\(status)), a recursive lock?")
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }

    @usableFromInline
    package borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
}

// `@unchecked Sendable` for any `Value`, as `Synchronization.Mutex` is: the pthread mutex
// is what makes that true. `value` is read and written only between `pthread_mutex_lock`
// (or a successful `pthread_mutex_trylock`) and `pthread_mutex_unlock`, so one thread at a
// time touches it, and `sending` in `init` and `withLock` keeps non-Sendable state from
// escaping the lock.
extension Mutex: @unchecked Sendable {} // the pthread mutex in `lock` guards `value`
#endif
