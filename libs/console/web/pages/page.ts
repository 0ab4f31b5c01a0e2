/** One page of the console: where it lives (`#/<path>`), its title in the menu, and how it renders. */
export interface Page {
  path: string;
  title: string;
  render(main: HTMLElement, params: URLSearchParams): Promise<void>;
}
