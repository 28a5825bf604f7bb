#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_set_connection_option is variadic, which Swift cannot call. The library is opened with dlopen
   (PDFWeb/MicroHTTPD/MicroHTTPDLibrary.swift), so the wrapper takes the function's address and calls
   it with its real, variadic type. */

/* MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds). */
static inline enum MHD_Result autograph_mhd_set_connection_timeout(void *function,
                                                                   struct MHD_Connection *connection,
                                                                   unsigned int seconds) {
    enum MHD_Result (*set)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...) =
        (enum MHD_Result (*)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...))function;
    return set(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}
