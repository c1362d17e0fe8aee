/** The console's entry: its styles and the app mounted on the page Bosun serves at /ui/. */
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
