// Under SALVO_TSAN_LOCKS (Scripts/tsan.sh) Salvo declares a `Mutex` ThreadSanitizer can see
// (Sources/Salvo/Support/TSanMutex.swift), visible to the whole package. In this module it and
// `Synchronization.Mutex` would both be visible, and a `Mutex<T>` in a type position would be
// ambiguous; this module's own name for Salvo's shadows both. Without the flag this file is
// empty and every `Mutex` here is `Synchronization.Mutex`.
#if SALVO_TSAN_LOCKS
import Salvo

typealias Mutex<Value> = Salvo.Mutex<Value>
#endif
