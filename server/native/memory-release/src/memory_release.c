/*
 * Node keeps no handle on the C allocator: memory freed by SQLite, HTTP buffers or worker threads
 * stays resident in glibc's heaps as holes between live blocks until malloc_trim(0) returns their
 * whole pages to the system. Elsewhere (musl, macOS, Windows) the call is a no-op that says so.
 */
#include <stdlib.h>
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value release_free_memory(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
#if defined(__GLIBC__)
  malloc_trim(0);
  napi_get_boolean(env, true, &result);
#else
  napi_get_boolean(env, false, &result);
#endif
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "releaseFreeMemory", NAPI_AUTO_LENGTH, release_free_memory, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "releaseFreeMemory", fn) != napi_ok) return NULL;
  return exports;
}
