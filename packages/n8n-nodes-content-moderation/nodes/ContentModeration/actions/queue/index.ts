import { defineResource } from '../resource';
import * as addItem from './addItem.operation';
import * as getItem from './getItem.operation';

export const { operations, description } = defineResource('queue', [addItem, getItem], { default: 'addItem' });
