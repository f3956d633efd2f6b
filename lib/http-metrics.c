/*
 * The /metrics endpoint (see http-metrics.h).  libmicrohttpd runs the
 * connections in its own thread; this file binds the socket itself, so
 * that a bad address and a port in use get messages that say which, and
 * refuses addresses beyond loopback unless the caller allows them: the
 * page tells anyone who can reach it how this machine's memory is laid
 * out and used.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http-metrics.h"
#include "log.h"

/* libmicrohttpd 0.9.71 made the handler's result an enum. */
#if MHD_VERSION >= 0x00097002
#define HTTP_METRICS_RESULT enum MHD_Result
#else
#define HTTP_METRICS_RESULT int
#endif

/*
 * What one client may hold: a request must arrive and its answer leave
 * within HTTP_METRICS_REQUEST_S of the connection's start or of its last
 * answer, and one address may have HTTP_METRICS_PER_CLIENT connections
 * open.  libmicrohttpd's own timeout only ends idle connections, so
 * clients that send a header byte every second could hold every slot
 * for good (slowloris); a scrape takes milliseconds.
 */
#define HTTP_METRICS_REQUEST_S		5
#define HTTP_METRICS_PER_CLIENT		8
#define HTTP_METRICS_CONNECTIONS	256

/* An open connection: its socket and when its current request began. */
struct http_conn {
	int		 fd;
	struct timespec	 start;
	int		 shut;		/* shut down for taking too long */
	struct http_conn *prev;
	struct http_conn *next;
};

/* The content type of the Prometheus text exposition format 0.0.4. */
#define HTTP_METRICS_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Queue a response with a fixed text body. */
static HTTP_METRICS_RESULT
http_metrics_text(struct MHD_Connection *conn, unsigned int status,
    const char *text)
{
	struct MHD_Response *resp;
	HTTP_METRICS_RESULT ret;

	resp = MHD_create_response_from_buffer(strlen(text), (void *)text,
	    MHD_RESPMEM_PERSISTENT);
	if (resp == NULL)
		return (MHD_NO);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
	    "text/plain; charset=utf-8");
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return (ret);
}

/*
 * Answer one request: GET or HEAD of /metrics gets a copy of the latest
 * page, taken under the lock; any other path is 404.
 */
static HTTP_METRICS_RESULT
http_metrics_answer(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls)
{
	struct http_metrics *h = cls;
	struct MHD_Response *resp = NULL;
	HTTP_METRICS_RESULT ret;
	int has_page;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(url, "/metrics") != 0)
		return (http_metrics_text(conn, MHD_HTTP_NOT_FOUND,
		    "not found: the metrics are at /metrics\n"));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return (http_metrics_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "only GET and HEAD\n"));
	pthread_mutex_lock(&h->lock);
	has_page = h->has_page;
	if (has_page)
		resp = MHD_create_response_from_buffer(h->len, h->page,
		    MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&h->lock);
	if (!has_page)
		return (http_metrics_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "no sample yet\n"));
	if (resp == NULL)
		return (MHD_NO);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
	    HTTP_METRICS_TYPE);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return (ret);
}

/*
 * Keep track of connections as libmicrohttpd opens and closes them (it
 * reports the close before it closes the socket, so the reaper never
 * shuts a socket number already given to another file).
 */
static void
http_metrics_notify(void *cls, struct MHD_Connection *conn,
    void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	struct http_metrics *h = cls;
	const union MHD_ConnectionInfo *info;
	struct http_conn *c;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		info = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CONNECTION_FD);
		c = xcalloc(1, sizeof *c);
		c->fd = info != NULL ? info->connect_fd : -1;
		clock_gettime(CLOCK_MONOTONIC, &c->start);
		pthread_mutex_lock(&h->conns_lock);
		c->next = h->conns;
		if (h->conns != NULL)
			h->conns->prev = c;
		h->conns = c;
		pthread_mutex_unlock(&h->conns_lock);
		*socket_context = c;
		return;
	}
	if ((c = *socket_context) == NULL)
		return;
	pthread_mutex_lock(&h->conns_lock);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		h->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&h->conns_lock);
	free(c);
	*socket_context = NULL;
}

/* An answer went out: the connection's next request starts its clock. */
static void
http_metrics_completed(void *cls, struct MHD_Connection *conn,
    void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct http_metrics *h = cls;
	const union MHD_ConnectionInfo *info;
	struct http_conn *c;

	(void)con_cls;
	(void)toe;
	info = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (info == NULL || (c = info->socket_context) == NULL)
		return;
	pthread_mutex_lock(&h->conns_lock);
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	pthread_mutex_unlock(&h->conns_lock);
}

/*
 * Shut down, four times a second, every connection whose request has
 * taken longer than HTTP_METRICS_REQUEST_S: libmicrohttpd then sees the
 * socket end and closes the connection, freeing its slot.
 */
static void *
http_metrics_reap(void *arg)
{
	struct http_metrics *h = arg;
	struct http_conn *c;
	struct timespec now, wake;

	pthread_mutex_lock(&h->conns_lock);
	while (!h->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (c = h->conns; c != NULL; c = c->next) {
			if (c->shut || c->fd < 0 || now.tv_sec - c->start.tv_sec <
			    HTTP_METRICS_REQUEST_S)
				continue;
			shutdown(c->fd, SHUT_RDWR);
			c->shut = 1;
		}
		wake = now;
		wake.tv_nsec += 250000000;
		if (wake.tv_nsec >= 1000000000) {
			wake.tv_sec++;
			wake.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&h->conns_cond, &h->conns_lock, &wake);
	}
	pthread_mutex_unlock(&h->conns_lock);
	return (NULL);
}

/* Is an address on this machine's loopback interface only? */
static int
http_metrics_loopback(const struct sockaddr *sa)
{
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;
	const uint8_t *b;

	if (sa->sa_family == AF_INET) {
		sin = (const struct sockaddr_in *)sa;
		return ((ntohl(sin->sin_addr.s_addr) >> 24) == 127);
	}
	if (sa->sa_family == AF_INET6) {
		sin6 = (const struct sockaddr_in6 *)sa;
		if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
			return (1);
		b = sin6->sin6_addr.s6_addr;
		return (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) && b[12] == 127);
	}
	return (0);
}

/*
 * Split "HOST:PORT" or "[HOST]:PORT" and resolve it.  Returns the address
 * list (freeaddrinfo) or NULL with a cause.
 */
static struct addrinfo *
http_metrics_resolve(const char *addr, char **cause)
{
	struct addrinfo hints, *ai = NULL;
	char host[256];
	const char *colon, *port, *p;
	size_t hlen;
	int error;

	if (addr[0] == '[') {
		colon = strstr(addr, "]:");
		if (colon == NULL) {
			fail_with(cause, RB_EXIT_INPUT, "--listen %s: expected "
			    "[ADDRESS]:PORT", addr);
			return (NULL);
		}
		hlen = (size_t)(colon - addr - 1);
		p = addr + 1;
		port = colon + 2;
	} else {
		colon = strrchr(addr, ':');
		if (colon == NULL || strchr(addr, ':') != colon) {
			fail_with(cause, RB_EXIT_INPUT, "--listen %s: expected "
			    "ADDRESS:PORT (e.g. 127.0.0.1:9464, [::1]:9464)",
			    addr);
			return (NULL);
		}
		hlen = (size_t)(colon - addr);
		p = addr;
		port = colon + 1;
	}
	if (hlen == 0 || hlen >= sizeof host || *port == '\0' ||
	    strspn(port, "0123456789") != strlen(port) || strlen(port) > 5 ||
	    atoi(port) > 65535) {
		fail_with(cause, RB_EXIT_INPUT, "--listen %s: expected "
		    "ADDRESS:PORT with a port from 0 to 65535", addr);
		return (NULL);
	}
	memcpy(host, p, hlen);
	host[hlen] = '\0';
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((error = getaddrinfo(host, port, &hints, &ai)) != 0) {
		fail_with(cause, RB_EXIT_INPUT, "--listen %s: %s", addr,
		    gai_strerror(error));
		return (NULL);
	}
	return (ai);
}

/*
 * Bind and listen on the first address of ai; the socket, or a negative
 * exit code with a cause.
 */
static int
http_metrics_bind(const char *addr, const struct addrinfo *ai, char **cause)
{
	int fd, one = 1, code, rc;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
	    ai->ai_protocol);
	if (fd == -1)
		return (fail_with(cause, RB_EXIT_ENV, "--listen %s: socket: %s",
		    addr, strerror(errno)));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
	    listen(fd, 16) == 0)
		return (fd);
	code = errno == EADDRNOTAVAIL ? RB_EXIT_INPUT : RB_EXIT_ENV;
	if (errno == EADDRINUSE)
		rc = fail_with(cause, code, "--listen %s: the port is in use: "
		    "choose another port or stop what listens there", addr);
	else if (errno == EACCES)
		rc = fail_with(cause, code, "--listen %s: %s (ports below 1024 "
		    "need privileges: choose a port above 1023)", addr,
		    strerror(errno));
	else if (errno == EADDRNOTAVAIL)
		rc = fail_with(cause, code, "--listen %s: not an address of this "
		    "machine", addr);
	else
		rc = fail_with(cause, code, "--listen %s: %s", addr,
		    strerror(errno));
	close(fd);
	return (rc);
}

/* Describe where the socket listens, as a URL of the endpoint. */
static void
http_metrics_url(struct http_metrics *h, int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	char host[INET6_ADDRSTRLEN], port[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof host, port,
	    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(h->url, sizeof h->url, "(unknown)");
		return;
	}
	snprintf(h->url, sizeof h->url, ss.ss_family == AF_INET6 ?
	    "http://[%s]:%s/metrics" : "http://%s:%s/metrics", host, port);
}

/* A condition variable on CLOCK_MONOTONIC, as the reaper's clock. */
static void
http_metrics_cond_init(pthread_cond_t *cond)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
}

/*
 * Listen on addr ("127.0.0.1:9464", "[::1]:9464", port 0 for any free
 * one) and serve /metrics from a thread of libmicrohttpd.  An address
 * beyond loopback needs allow_any.
 */
int
http_metrics_start(struct http_metrics *h, const char *addr, int allow_any,
    char **cause)
{
	struct addrinfo *ai;
	unsigned int flags;
	int fd;

	memset(h, 0, sizeof *h);
	if ((ai = http_metrics_resolve(addr, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	if (!allow_any && !http_metrics_loopback(ai->ai_addr)) {
		freeaddrinfo(ai);
		return (fail_with(cause, RB_EXIT_INPUT, "--listen %s: not a "
		    "loopback address; the metrics show this machine's memory "
		    "to anyone who can connect, so add --listen-any to serve "
		    "them there", addr));
	}
	fd = http_metrics_bind(addr, ai, cause);
	flags = MHD_USE_INTERNAL_POLLING_THREAD;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	freeaddrinfo(ai);
	if (fd < 0)
		return (fd);
	http_metrics_url(h, fd);
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->conns_lock, NULL);
	http_metrics_cond_init(&h->conns_cond);
	h->daemon = MHD_start_daemon(flags, 0, NULL, NULL,
	    http_metrics_answer, h, MHD_OPTION_LISTEN_SOCKET, fd,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTP_METRICS_CONNECTIONS,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)HTTP_METRICS_PER_CLIENT,
	    MHD_OPTION_NOTIFY_CONNECTION, http_metrics_notify, h,
	    MHD_OPTION_NOTIFY_COMPLETED, http_metrics_completed, h,
	    MHD_OPTION_END);
	if (h->daemon == NULL) {
		close(fd);
		pthread_mutex_destroy(&h->lock);
		pthread_mutex_destroy(&h->conns_lock);
		pthread_cond_destroy(&h->conns_cond);
		return (fail_with(cause, RB_EXIT_ENV, "--listen %s: cannot "
		    "start the HTTP server", addr));
	}
	if ((errno = pthread_create(&h->reaper, NULL, http_metrics_reap,
	    h)) != 0) {
		MHD_stop_daemon(h->daemon);
		h->daemon = NULL;
		pthread_mutex_destroy(&h->lock);
		pthread_mutex_destroy(&h->conns_lock);
		pthread_cond_destroy(&h->conns_cond);
		return (fail_with(cause, RB_EXIT_ENV, "--listen %s: "
		    "pthread_create: %s", addr, strerror(errno)));
	}
	return (0);
}

/*
 * Make a new page the one served: swapped with the old one under the
 * lock, so the caller gets the old buffer back to build the next page in
 * and nothing is copied or allocated.
 */
void
http_metrics_publish(struct http_metrics *h, char **page, size_t *len,
    size_t *cap)
{
	char *p;
	size_t n;

	pthread_mutex_lock(&h->lock);
	p = h->page;
	h->page = *page;
	*page = p;
	n = h->len;
	h->len = *len;
	*len = n;
	n = h->cap;
	h->cap = *cap;
	*cap = n;
	h->has_page = 1;
	pthread_mutex_unlock(&h->lock);
}

/* Stop serving: close the socket and every connection, free the page. */
void
http_metrics_stop(struct http_metrics *h)
{
	if (h->daemon == NULL)
		return;
	pthread_mutex_lock(&h->conns_lock);
	h->stopping = 1;
	pthread_cond_signal(&h->conns_cond);
	pthread_mutex_unlock(&h->conns_lock);
	pthread_join(h->reaper, NULL);
	MHD_stop_daemon(h->daemon);
	h->daemon = NULL;
	pthread_mutex_destroy(&h->lock);
	pthread_mutex_destroy(&h->conns_lock);
	pthread_cond_destroy(&h->conns_cond);
	free(h->page);
	h->page = NULL;
}
