/*
 * A /metrics endpoint over HTTP (libmicrohttpd): serves the latest page of
 * the Prometheus sink to scrapers.  The page is swapped in whole under a
 * mutex, so a scrape sees one sample's page, never half of one.
 */
#ifndef RB_HTTP_METRICS_H
#define RB_HTTP_METRICS_H

#include <pthread.h>
#include <stddef.h>

struct MHD_Daemon;
struct http_conn;

struct http_metrics {
	struct MHD_Daemon *daemon;
	pthread_mutex_t	 lock;
	char		*page;		/* the latest page, under lock */
	size_t		 len;
	size_t		 cap;
	int		 has_page;
	char		 url[128];	/* where it listens, for messages */
	/* open connections and when their request began, under conns_lock */
	pthread_mutex_t	 conns_lock;
	pthread_cond_t	 conns_cond;
	struct http_conn *conns;
	int		 stopping;
	pthread_t	 reaper;
};

int	 http_metrics_start(struct http_metrics *h, const char *addr,
	     int allow_any, char **cause);
void	 http_metrics_publish(struct http_metrics *h, char **page,
	     size_t *len, size_t *cap);
void	 http_metrics_stop(struct http_metrics *h);

#endif
