/* Singly linked list. */
#include <stdlib.h>
#include "list.h"

#define MAX_LEN 128
#define SQUARE(x) ((x) * (x))

typedef struct node {
    int value;
    struct node *next;
} node_t;

enum color { RED, GREEN };

static int count(const node_t *head);

node_t *list_push(node_t *head, int value) {
    node_t *n = malloc(sizeof(node_t));
    n->value = SQUARE(value);
    n->next = head;
    log_push(n, count(head));
    return n;
}

static int count(const node_t *head) {
    int c = 0;
    for (; head; head = head->next) c++;
    return c;
}
