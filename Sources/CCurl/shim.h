#include <curl/curl.h>

// libcurl is opened with dlopen when the first request is sent (HTTPClient's CurlLibrary), not
// linked: Debian's build brings GnuTLS, Kerberos, LDAP and a score of other libraries whose loading
// would slow the start of every `autograph` command, as libmicrohttpd's would.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// a kind of argument, each given the address dlsym found (swift-nio-ssl's CNIOBoringSSLShims wraps
// BoringSSL's macros the same way).

typedef CURLcode (*autograph_curl_setopt_type)(CURL *, CURLoption, ...);
typedef CURLcode (*autograph_curl_getinfo_type)(CURL *, CURLINFO, ...);

static inline CURLcode autograph_curl_setopt_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

static inline CURLcode autograph_curl_setopt_offset(
    void *setopt, CURL *handle, CURLoption option, curl_off_t value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

static inline CURLcode autograph_curl_setopt_string(
    void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

static inline CURLcode autograph_curl_setopt_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

static inline CURLcode autograph_curl_setopt_list(
    void *setopt, CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode autograph_curl_setopt_write_function(
    void *setopt, CURL *handle, CURLoption option, curl_write_callback value) {
    return ((autograph_curl_setopt_type)setopt)(handle, option, value);
}

static inline CURLcode autograph_curl_setopt_progress_function(
    void *setopt, CURL *handle, curl_xferinfo_callback value) {
    return ((autograph_curl_setopt_type)setopt)(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode autograph_curl_getinfo_long(void *getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((autograph_curl_getinfo_type)getinfo)(handle, info, value);
}

/// CURLOPT_OPENSOCKETFUNCTION: where HTTPClient checks each address before a connection is made.
static inline CURLcode autograph_curl_setopt_opensocket_function(
    void *setopt, CURL *handle, curl_opensocket_callback value) {
    return ((autograph_curl_setopt_type)setopt)(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}
