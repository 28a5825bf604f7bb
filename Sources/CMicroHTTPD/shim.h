#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_set_connection_option and MHD_get_daemon_info are variadic, which Swift cannot call. The
   library is opened with dlopen (PDFWeb/MicroHTTPD/MicroHTTPDLibrary.swift), so each wrapper takes
   the function's address and calls it with its real, variadic type. */

/* MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds). */
static inline enum MHD_Result autograph_mhd_set_connection_timeout(void *function,
                                                                   struct MHD_Connection *connection,
                                                                   unsigned int seconds) {
    enum MHD_Result (*set)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...) =
        (enum MHD_Result (*)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...))function;
    return set(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS)->num_connections (0 when unknown). */
static inline unsigned int autograph_mhd_current_connections(void *function, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *(*info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =
        (const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...))function;
    const union MHD_DaemonInfo *value = info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return value ? value->num_connections : 0;
}
