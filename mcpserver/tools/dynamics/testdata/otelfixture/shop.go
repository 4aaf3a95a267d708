package main

import (
	"context"
	"errors"
	"runtime"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Cart is a customer's cart.
type Cart struct {
	Items []int
}

var errDeclined = errors.New("card declined")

// handleCheckout serves one checkout: load the cart, total it, charge.
func handleCheckout(ctx context.Context, tr trace.Tracer, user string, card string) error {
	ctx, span := start(ctx, tr, "POST /checkout", trace.WithSpanKind(trace.SpanKindServer))
	defer span.End()
	cart := loadCart(ctx, tr, user)
	if err := chargeCard(ctx, tr, card, cart.Total(ctx, tr)); err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		return err
	}
	return nil
}

func loadCart(ctx context.Context, tr trace.Tracer, user string) *Cart {
	ctx, span := start(ctx, tr, "loadCart")
	defer span.End()
	// A span the database driver would make: no code attributes.
	_, q := tr.Start(ctx, "SELECT carts")
	q.SetAttributes(attribute.String("db.system", "postgresql"))
	q.End()
	return &Cart{Items: []int{len(user), 3, 4}}
}

// Total sums the cart.
func (c *Cart) Total(ctx context.Context, tr trace.Tracer) int {
	_, span := start(ctx, tr, "Cart.Total")
	defer span.End()
	sum := 0
	for _, x := range c.Items {
		sum += x
	}
	return sum
}

func chargeCard(ctx context.Context, tr trace.Tracer, card string, amount int) error {
	_, span := start(ctx, tr, "chargeCard", trace.WithAttributes(attribute.Int("amount", amount)))
	defer span.End()
	if strings.HasPrefix(card, "0000") {
		span.SetStatus(codes.Error, errDeclined.Error())
		return errDeclined
	}
	return nil
}

// start opens a span carrying the caller's code attributes, as
// instrumentation libraries record them (code.function, code.namespace,
// code.filepath, code.lineno).
func start(ctx context.Context, tr trace.Tracer, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	pc, file, line, _ := runtime.Caller(1)
	full := runtime.FuncForPC(pc).Name() // main.handleCheckout, main.(*Cart).Total
	ns, fn := full, full
	if i := strings.LastIndex(full, "."); i >= 0 {
		ns, fn = full[:i], full[i+1:]
	}
	opts = append(opts, trace.WithAttributes(
		attribute.String("code.function", fn),
		attribute.String("code.namespace", ns),
		attribute.String("code.filepath", file),
		attribute.Int("code.lineno", line),
	))
	return tr.Start(ctx, name, opts...)
}
