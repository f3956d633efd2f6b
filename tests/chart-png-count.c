/*
 * chart-png-count FILE RRGGBB: print how many pixels of a PNG are within
 * 3 levels per channel of a colour.  The browser test uses it to see that
 * the heatmap's colours really reached the screen.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

int
main(int argc, char **argv)
{
	cairo_surface_t *img;
	unsigned long want, n = 0;
	unsigned char *data;
	uint32_t v;
	int x, y, w, h, stride, i, d, near;

	if (argc != 3) {
		fprintf(stderr, "usage: chart-png-count FILE RRGGBB\n");
		return (2);
	}
	want = strtoul(argv[2], NULL, 16);
	img = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "%s: %s\n", argv[1],
		    cairo_status_to_string(cairo_surface_status(img)));
		return (2);
	}
	data = cairo_image_surface_get_data(img);
	w = cairo_image_surface_get_width(img);
	h = cairo_image_surface_get_height(img);
	stride = cairo_image_surface_get_stride(img);
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			v = ((uint32_t *)(data + (size_t)y * stride))[x];
			for (near = 1, i = 0; i < 3; i++) {
				d = (int)((v >> (8 * i)) & 0xff) -
				    (int)((want >> (8 * i)) & 0xff);
				if (d < -3 || d > 3)
					near = 0;
			}
			n += near;
		}
	}
	printf("%lu\n", n);
	cairo_surface_destroy(img);
	return (0);
}
