// goto labels are per function: undefined and duplicate labels.
kernel void ok(global int *out)
{
    int i = 0;
again:
    i++;
    if (i < 4) goto again;
    goto done;
done:
    out[0] = i;
}

kernel void bad(global int *out)
{
    goto nowhere;
twice:
    out[0] = 1;
twice:
    out[1] = 2;
}

void other(void) { goto again; }
