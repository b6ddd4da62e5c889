import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

function WhyScreen() {
  return <ScreenTitle>Why?</ScreenTitle>;
}

export const whyScreen: ScreenDefinition = { path: 'why', label: 'Why?', needs: ['authorization.permission-simulation.view'], component: WhyScreen };
