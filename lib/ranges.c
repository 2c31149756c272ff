// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_ranges: a set of address ranges [lo, hi) that answers "which
 * of them overlap this one" in logarithmic time, for the missing-sync
 * detector's record of past accesses (race.c), which can hold one range per
 * tile of a big buffer.
 *
 * A treap: a binary search tree on (lo, insertion order) whose nodes also
 * form a heap on a pseudo-random priority, so that it stays balanced in
 * expectation whatever order the ranges come in; every node knows the
 * highest hi of its subtree, which prunes the overlap search.  The
 * priorities come from a fixed seed: the same insertions build the same
 * tree.  Nodes are the caller's (intrusive), nothing is allocated here
 * but the result array of asc_ranges_overlap().
 */
#include <stdlib.h>

#include "ranges.h"

static uintptr_t max_hi(const struct asc_range *n)
{
	return n ? n->max_hi : 0;
}

static void update(struct asc_range *n)
{
	uintptr_t m = n->hi;

	if (max_hi(n->left) > m)
		m = max_hi(n->left);
	if (max_hi(n->right) > m)
		m = max_hi(n->right);
	n->max_hi = m;
}

static bool before(const struct asc_range *a, const struct asc_range *b)
{
	return a->lo < b->lo || (a->lo == b->lo && a->key < b->key);
}

static struct asc_range *rotate_right(struct asc_range *n)
{
	struct asc_range *l = n->left;

	n->left = l->right;
	l->right = n;
	update(n);
	update(l);
	return l;
}

static struct asc_range *rotate_left(struct asc_range *n)
{
	struct asc_range *r = n->right;

	n->right = r->left;
	r->left = n;
	update(n);
	update(r);
	return r;
}

static struct asc_range *insert(struct asc_range *root, struct asc_range *n)
{
	if (!root) {
		update(n);
		return n;
	}
	if (before(n, root)) {
		root->left = insert(root->left, n);
		if (root->left->prio > root->prio)
			return rotate_right(root);
	} else {
		root->right = insert(root->right, n);
		if (root->right->prio > root->prio)
			return rotate_left(root);
	}
	update(root);
	return root;
}

static struct asc_range *remove_node(struct asc_range *root,
				     struct asc_range *n)
{
	if (!root)
		return NULL;
	if (root == n) {
		if (!root->left)
			return root->right;
		if (!root->right)
			return root->left;
		if (root->left->prio > root->right->prio) {
			root = rotate_right(root);
			root->right = remove_node(root->right, n);
		} else {
			root = rotate_left(root);
			root->left = remove_node(root->left, n);
		}
	} else if (before(n, root)) {
		root->left = remove_node(root->left, n);
	} else {
		root->right = remove_node(root->right, n);
	}
	update(root);
	return root;
}

/* xorshift32: cheap, and the same sequence on every run. */
static uint32_t next_prio(struct asc_ranges *t)
{
	uint32_t x = t->seed ? t->seed : 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	t->seed = x;
	return x;
}

void asc_ranges_insert(struct asc_ranges *t, struct asc_range *n)
{
	n->key = t->next_key++;
	n->prio = next_prio(t);
	n->left = n->right = NULL;
	t->root = insert(t->root, n);
	t->count++;
}

void asc_ranges_remove(struct asc_ranges *t, struct asc_range *n)
{
	t->root = remove_node(t->root, n);
	t->count--;
}

static int collect(const struct asc_range *n, uintptr_t lo, uintptr_t hi,
		   struct asc_range_list *out)
{
	struct asc_range **v;

	if (!n || n->max_hi <= lo)
		return 0;
	if (collect(n->left, lo, hi, out))
		return -1;
	if (n->lo < hi && lo < n->hi) {
		if (out->len == out->cap) {
			size_t cap = out->cap ? 2 * out->cap : 16;

			v = realloc(out->v, cap * sizeof(*v));
			if (!v)
				return -1;
			out->v = v;
			out->cap = cap;
		}
		out->v[out->len++] = (struct asc_range *)n;
	}
	if (n->lo >= hi)
		return 0;
	return collect(n->right, lo, hi, out);
}

int asc_ranges_overlap(const struct asc_ranges *t, uintptr_t lo,
		       uintptr_t hi, struct asc_range_list *out)
{
	out->len = 0;
	return collect(t->root, lo, hi, out);
}

static void clear(struct asc_range *n, void (*release)(struct asc_range *))
{
	if (!n)
		return;
	clear(n->left, release);
	clear(n->right, release);
	release(n);
}

void asc_ranges_clear(struct asc_ranges *t, void (*release)(struct asc_range *))
{
	clear(t->root, release);
	t->root = NULL;
	t->count = 0;
}
