import React from "react";
import { render } from "@testing-library/react";
import { Widget } from "./widget";

describe("Widget", () => {
  beforeEach(() => setup());

  it("renders the title", () => {
    const view = render(<Widget title="x" />);
    expect(view.getByText("x")).toBeTruthy();
  });

  test.skip("skipped case", () => {
    pending();
  });
});

export function Panel({ items }: Props) {
  return (
    <Layout>
      <Widget.Header />
      {items.map((i) => <Item key={i} />)}
    </Layout>
  );
}
