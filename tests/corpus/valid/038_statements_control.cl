// Exercises: if/else-if chains, dangling else, switch with fallthrough and default in the middle, while, do-while, for with declarations, break/continue, goto/labels, early return, empty statements.
int classify(int x)
{
    if (x < 0) return -1;
    else if (x == 0) return 0;
    else if (x < 10) return 1;
    else return 2;
}

int sw(int x)
{
    int r = 0;
    switch (x) {
    case 0:
        r += 1;
        /* fallthrough */
    case 1:
    case 2:
        r += 2;
        break;
    default:
        r = -1;
        /* fallthrough */
    case 5: {
        int inner = 3;
        r += inner;
        break;
    }
    case 'a':
        r = 97;
    }
    switch (x & 3) default: r++;
    return r;
}

__kernel void control(__global int *out, int n)
{
    int acc = 0;
    int i = 0;
    while (i < n) {
        if (i % 2) { i++; continue; }
        acc += i++;
        if (acc > 1000) break;
    }
    do {
        acc--;
    } while (acc > 500);
    for (int j = 0, k = n; j < k; j++, k--) {
        if (j == 3) continue;
        for (;;) { break; }
        acc += classify(j - 2) + sw(j);
    }
    for (i = 0; i < 4; i++)
        if (i > 1)
            if (i > 2) acc += 1;
            else acc += 2;     /* dangling else binds to inner if */
    int tries = 0;
retry:
    tries++;
    if (tries < 3) goto retry;
    if (n < 0) goto done;
    ;;
    { }
    acc += tries;
done:
    out[get_global_id(0)] = acc;
    return;
}
